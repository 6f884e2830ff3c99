import FailscopeModel
import Foundation

/// Writes results as JUnit XML, in the shape `JUnitImporter` reads back to the same tests: so any CI's
/// test tab can show a Failscope run, and the file round-trips through `failscope import`.
///
/// Shape (the Ant/Surefire schema with the case-level `<properties>` of fastlane's trainer):
/// ```
/// <testsuites name="RUN" tests="N" failures="F" errors="E" skipped="S" time="SECONDS">
///   <testsuite name="SUITE" tests=… failures=… errors=… skipped=… time=…>
///     <testcase classname="SUITE" name="NAME" time="SECONDS" timestamp="ISO 8601">
///       <properties>
///         <property name="argument" value="ARGUMENTS"/>     parameterized tests
///         <property name="device_name" value="DEVICE"/>     results that name a device
///         <property name="repetition" value="Retry 1"/>     every attempt N of a retried test: Retry N
///       </properties>
///       <failure message="MESSAGE" type="failure" file="PATH" line="N">PATH:N: MESSAGE</failure>
///       <error …/> for a failure that is an error; <skipped message="REASON"/> for a skip
/// ```
/// Suites and cases keep the results' order (attempts of a test one after another). Text is escaped
/// as XML 1.0 requires; characters XML 1.0 cannot carry at all (most C0 controls) become U+FFFD.
public enum JUnitWriter {
    /// The JUnit XML of `results` (UTF-8), as one `<testsuites>` named `name`.
    public static func write(_ results: [TestResult], name: String) -> Data {
        var suites: [(name: String, results: [TestResult])] = []
        var index: [String: Int] = [:]
        for result in results {
            if let position = index[result.suite] {
                suites[position].results.append(result)
            } else {
                index[result.suite] = suites.count
                suites.append((result.suite, [result]))
            }
        }
        let retried = Set(results.filter { $0.attempt > 1 }.map(testKey))
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(escaped(name))\"\(counts(results))>\n"
        for suite in suites {
            xml += "  <testsuite name=\"\(escaped(suite.name))\"\(counts(suite.results))>\n"
            for result in suite.results { xml += testCase(result, retried: retried.contains(testKey(result))) }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return Data(xml.utf8)
    }

    private static func counts(_ results: [TestResult]) -> String {
        let failures = results.filter { $0.status == .failed }.count
        let errors = results.filter { $0.status == .error }.count
        let skipped = results.filter { $0.status == .skipped }.count
        let time = results.compactMap(\.duration).reduce(0, +)
        return " tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
            + " time=\"\(seconds(time))\""
    }

    /// A test on a device: its attempts share it.
    private static func testKey(_ result: TestResult) -> String {
        result.resultKeyTestPart + "\u{1F}" + (result.device ?? "")
    }

    private static func testCase(_ result: TestResult, retried: Bool) -> String {
        var attributes = "classname=\"\(escaped(result.suite))\" name=\"\(escaped(result.name))\""
        if let duration = result.duration { attributes += " time=\"\(seconds(duration))\"" }
        if let startedAt = result.startedAt { attributes += " timestamp=\"\(WireCoding.formatDate(startedAt))\"" }
        var properties: [(String, String)] = []
        if let arguments = result.arguments { properties.append(("argument", arguments)) }
        if let device = result.device { properties.append(("device_name", device)) }
        if retried { properties.append(("repetition", "Retry \(result.attempt)")) }
        var body = ""
        if !properties.isEmpty {
            body += "      <properties>\n"
            for (name, value) in properties {
                body += "        <property name=\"\(name)\" value=\"\(escaped(value))\"/>\n"
            }
            body += "      </properties>\n"
        }
        switch result.status {
        case .failed, .error:
            let failures =
                result.failures.isEmpty
                ? [Failure(message: result.status == .error ? "error" : "failed", isError: result.status == .error)]
                : result.failures
            for failure in failures { body += failureElement(failure, isError: result.status == .error) }
        case .skipped:
            body += "      <skipped" + (result.skipReason.map { " message=\"\(escaped($0))\"" } ?? "") + "/>\n"
        case .passed, .expectedFailure:
            break
        }
        if body.isEmpty { return "    <testcase \(attributes)/>\n" }
        return "    <testcase \(attributes)>\n\(body)    </testcase>\n"
    }

    private static func failureElement(_ failure: Failure, isError: Bool) -> String {
        let element = failure.isError || isError ? "error" : "failure"
        var attributes = "message=\"\(escaped(failure.message))\" type=\"\(element)\""
        var text = failure.message
        if let location = failure.location {
            attributes += " file=\"\(escaped(location.file))\" line=\"\(location.line)\""
            text = "\(location.file):\(location.line): \(failure.message)"
        }
        return "      <\(element) \(attributes)>\(escaped(text))</\(element)>\n"
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// `text` escaped for an XML 1.0 attribute value or text node.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
