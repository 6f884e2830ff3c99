import XCTest

@testable import FailscopeImport

final class XMLRepairReaderTests: XCTestCase {
    private func repair(_ text: String, textLimit: Int = 1 << 20) -> (String, XMLRepairReader) {
        let reader = XMLRepairReader(data: Data(text.utf8), textLimit: textLimit)
        return (String(decoding: reader.readAll(), as: UTF8.self), reader)
    }

    func testWellFormedInputPassesUnchanged() {
        let xml =
            "<?xml version='1.0'?>\n<!-- c < & -->\n<a x=\"1 &amp; 2\" y='&#65;'><b>t &lt; &#x41;</b><![CDATA[ < & ]]></a>"
        let (output, reader) = repair(xml)
        XCTAssertEqual(output, xml)
        XCTAssertEqual(reader.repairs.total, 0)
        XCTAssertNil(reader.truncation)
    }

    func testDoctypeIsDroppedSoEntitiesCannotExpand() {
        let (output, reader) = repair(
            "<?xml version='1.0'?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ENTITY lol2 \"&lol;&lol;\">\n]>\n<a>&lol2;</a>"
        )
        XCTAssertEqual(output, "<?xml version='1.0'?>\n\n<a>&amp;lol2;</a>")
        XCTAssertEqual(reader.declarations, 1)
        XCTAssertNil(reader.truncation)
    }

    func testRepairsAreCountedWithTheFirstPosition() {
        let (output, reader) = repair("<a n=\"x & y\">\n<failure>p < q &nbsp; <Obj: 0x1></failure></a>")
        XCTAssertEqual(output, "<a n=\"x &amp; y\">\n<failure>p &lt; q &amp;nbsp; &lt;Obj: 0x1></failure></a>")
        XCTAssertEqual(reader.repairs.ampersands, 2)
        XCTAssertEqual(reader.repairs.lessThans, 2)
        XCTAssertEqual(reader.repairs.firstLine, 1)
        XCTAssertEqual(reader.repairs.firstColumn, 9)
    }

    func testControlCharactersBecomeStandInsAndComeBack() {
        let (output, reader) = repair("<a m='\u{1B}[1m'>&#27;</a>")
        XCTAssertEqual(reader.repairs.controlCharacters, 2)
        XCTAssertEqual(XMLRepairReader.restore(output), "<a m='\u{1B}[1m'>\u{1B}</a>")
    }

    func testTruncationNamesTheOpenElement() {
        let (_, reader) = repair("<testsuites>\n  <testsuite name='a'>\n    <testcase")
        XCTAssertEqual(reader.truncation?.openElement, "testsuite")
        XCTAssertEqual(reader.truncation?.openElementLine, 2)
        XCTAssertEqual(reader.truncation?.inside, "a tag")
    }

    func testLinesAndColumnsCountCharacters() {
        let long = String(repeating: "x", count: 100)
        let (_, reader) = repair("<a>\n\(long)é€\n  <b c='1\n2'>\(long)\u{1B}\n<d")  // lines 1-5
        XCTAssertEqual(
            reader.repairs.firstLine, 4, "the control character's line (a line feed inside an attribute counts)")
        XCTAssertEqual(reader.repairs.firstColumn, 104, "columns count characters: 2'> then 100 x")
        XCTAssertEqual(reader.truncation?.line, 5)
        XCTAssertEqual(reader.truncation?.column, 3)
        XCTAssertEqual(reader.truncation?.parserLine, 4, "the parser sees that line feed as &#10;")
    }

    func testLongTextRunsAreCutAndCounted() {
        let body = String(repeating: "a", count: 10_000)
        let (output, reader) = repair("<a><![CDATA[\(body)]]><b>\(body)</b></a>", textLimit: 100)
        XCTAssertEqual(
            output.count, 26 + 200, output.replacingOccurrences(of: String(repeating: "a", count: 50), with: "A"))
        XCTAssertTrue(output == "<a><![CDATA[\(body.prefix(100))]]><b>\(body.prefix(100))</b></a>")
        XCTAssertEqual(reader.droppedTextBytes, 2 * 9_900)
    }
}
