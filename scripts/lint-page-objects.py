#!/usr/bin/env python3
"""The Page Object acceptance check of seed 000, run on a UI test suite.

Usage: lint-page-objects.py SUITE_DIR BASE_PAGE_FILE   (exit 1 listing every violation)
       lint-page-objects.py --self-test                 (proves each rule catches its violation)

Rules: (1) the base page's open methods thread `file: StaticString = #filePath, line: UInt = #line`;
(2) one page object per file under Pages/, file name = class name, subclassing BasePage, locators
private; (3) page methods thread #filePath/#line and never return Void (verifications return Self,
actions the next page); (4) no raw query strings and no element types in test bodies; (5) no sleep
anywhere in the pages, the tests or the base page.
"""
import os
import re
import sys
import tempfile

QUERY = re.compile(
    r"\.(buttons|staticTexts|textFields|secureTextFields|cells|pickerWheels|pickers|switches|collectionViews|tables|"
    r"alerts|navigationBars|scrollViews|images|otherElements|activityIndicators|descendants|children)\b"
    r"|\bSimulatedElement\b|\bElementQuery\b|\bElementType\b|\bXCUIElement\b|\[\s*\"")
SLEEP = re.compile(r"\b(sleep|usleep|nanosleep)\s*\(|Thread\.sleep|Task\.sleep")
FUNC = re.compile(r"^\s*((?:@\w+\s+)*)((?:open|public|private|fileprivate|internal|override|final|static|class)\s+)*func\s+(\w+)\s*\(", re.M)


def signatures(text):
    """Yields (name, modifiers, signature) for every func, the signature running to its opening brace."""
    for match in FUNC.finditer(text):
        brace = text.find("{", match.end())
        yield match.group(3), text[match.start():match.end()], text[match.start():brace]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def check(suite, base_page):
    problems = []
    base = strip_comments(open(base_page).read())
    for name, head, signature in signatures(base):
        if "open " in head and name not in ("screenshot",) and not ("#filePath" in signature and "#line" in signature):
            problems.append(f"{base_page}: {name}() does not thread file: #filePath / line: #line")
    if SLEEP.search(base):
        problems.append(f"{base_page}: sleep")
    pages_dir = os.path.join(suite, "Pages")
    pages = sorted(f for f in os.listdir(pages_dir) if f.endswith(".swift")) if os.path.isdir(pages_dir) else []
    if not pages:
        problems.append(f"{suite}: no page objects under Pages/")
    for file in pages:
        path = os.path.join(pages_dir, file)
        text = strip_comments(open(path).read())
        page = file[:-len(".swift")]
        if not re.search(rf"\bclass\s+{page}\s*:\s*BasePage\b", text):
            problems.append(f"{path}: the file must hold the page `{page}`, a BasePage subclass")
        if len(re.findall(r"\bclass\s+\w+\s*:\s*BasePage\b", text)) > 1:
            problems.append(f"{path}: one page object per file")
        for match in re.finditer(r"^[ \t]*(?![ \t]|private|fileprivate)[^\n]*\bvar\s+\w+\s*:\s*(SimulatedElement|ElementQuery)\b", text, re.M):
            problems.append(f"{path}: locator is not private: {match.group(0).strip()}")
        for name, head, signature in signatures(text):
            if "private" in head:
                continue
            if not ("#filePath" in signature and "#line" in signature):
                problems.append(f"{path}: {name}() does not thread file: #filePath / line: #line")
            if "->" not in signature or re.search(r"->\s*(Void|\(\))\s*$", signature.strip()):
                problems.append(f"{path}: {name}() returns Void; return Self or the next page")
        if SLEEP.search(text):
            problems.append(f"{path}: sleep")
    for file in sorted(os.listdir(suite)):
        path = os.path.join(suite, file)
        if not file.endswith(".swift") or not os.path.isfile(path):
            continue
        text = strip_comments(open(path).read())
        if SLEEP.search(text):
            problems.append(f"{path}: sleep")
        if re.search(r"\bclass\s+\w+\s*:\s*BasePage\b", text):
            problems.append(f"{path}: page objects belong under Pages/")
        for body in re.finditer(r"func\s+test\w*\s*\([^)]*\)[^{]*\{(.*?)\n    \}", text, re.S):
            for match in QUERY.finditer(body.group(1)):
                problems.append(f"{path}: raw query or element type in a test body: '{match.group(0)}'")
    return problems


def self_test():
    bad = {
        "Pages/LoginPage.swift": "final class LoginPage: BasePage {\n    var field: SimulatedElement { app.buttons[\"x\"] }\n"
        "    func tapLogin(file: StaticString = #filePath, line: UInt = #line) {\n        sleep(1)\n    }\n"
        "    func typeName(_ name: String) -> Self { self }\n}\n",
        "Pages/Wrong.swift": "final class Other: BasePage {}\n",
        "LoginTests.swift": "final class LoginTests: UITestCase {\n    func testRaw() {\n        app.buttons[\"login\"].tap()\n    }\n}\n",
        "BasePage.swift": "open class BasePage {\n    open func tap(_ e: SimulatedElement) {}\n}\n",
    }
    expected = ["locator is not private", "tapLogin() returns Void", "LoginPage.swift: sleep",
                "typeName() does not thread", "Wrong.swift: the file must hold", "raw query or element type",
                "tap() does not thread"]
    with tempfile.TemporaryDirectory() as root:
        for name, text in bad.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            open(os.path.join(root, name), "w").write(text)
        problems = "\n".join(check(root, os.path.join(root, "BasePage.swift")))
    missing = [rule for rule in expected if rule not in problems]
    if missing:
        print("lint-page-objects self-test: rules that caught nothing: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 64
    problems = check(argv[1], argv[2])
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"Page Object check: {len(problems)} violation(s)", file=sys.stderr)
        return 1
    print(f"Page Object check: {argv[1]} conforms to seed 000", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
