import FailscopeModel
import XCTest

@testable import FailscopeImport

/// Reports built to exhaust the importer: nesting without end, and element soup inside `<system-out>`.
/// Generated here, small enough to run in a moment; the error or the bounded result is asserted.
final class HostileReportTests: XCTestCase {
    private func parse(_ data: Data) -> Result<ParsedReport, ImportError> {
        do { return .success(try JUnitImporter().parse(data: data, name: "hostile.xml")) } catch {
            return .failure(error)
        }
    }

    func testNestingDeeperThan256LevelsIsRefusedWhereItHappens() throws {
        var xml = "<testsuites>\n<testsuite name='S'><testcase classname='S' name='testOne'/>\n"
        xml += String(repeating: "<x>", count: 200_000)
        guard case .failure(let error) = parse(Data(xml.utf8)) else { return XCTFail("a 200,000-level file imported") }
        XCTAssertEqual(error.line, 3)
        // <testsuites> and <testsuite> are levels 1 and 2: the 255th <x> opens level 257.
        XCTAssertEqual(error.column, 255 * 3, "the '>' of the 255th <x>")
        XCTAssertTrue(
            error.reason.hasPrefix("elements nested deeper than 256 levels (<x> opens level 257)"), error.reason)
        XCTAssertTrue(error.reason.hasSuffix("; 1 complete test case was read before it"), error.reason)
    }

    func testNestingOf256LevelsStillImports() throws {
        // 254 suites, the case at level 255, its <system-out> at 256.
        let xml =
            String(repeating: "<testsuite name='S'>", count: 254) + "<testcase classname='S' name='testDeep'/>"
            + "<testcase classname='S' name='testDeepest'><system-out>fine</system-out></testcase>"
            + String(repeating: "</testsuite>", count: 254)
        let report = try parse(Data(xml.utf8)).get()
        XCTAssertEqual(report.results.map(\.name), ["testDeep", "testDeepest"])
        XCTAssertEqual(report.results.last?.systemOut, "fine")
    }

    func testKnownElementsLeftOpenInsideSystemOutHitTheSameLimit() throws {
        var xml = "<testsuite name='S'><testcase classname='S' name='testLog'><system-out>"
        xml += String(repeating: "<testcase name='x'>", count: 50_000)
        guard case .failure(let error) = parse(Data(xml.utf8)) else { return XCTFail("imported") }
        XCTAssertTrue(error.reason.hasPrefix("elements nested deeper than 256 levels (<testcase>"), error.reason)
    }

    func testUnclosedMarkupInsideSystemOutIsTextKeptWithinTheOutputLimit() throws {
        // 4 MB of unclosed tags that are not JUnit's: text, kept up to the limit, the rest counted.
        let soup = String(repeating: "<div><span class=a>", count: 4 << 20 / 19)
        let xml =
            "<testsuite name='S'><testcase classname='S' name='testLog'><system-out>\(soup)</system-out></testcase>"
            + "<testcase classname='S' name='testAfter'><failure message='boom'/></testcase></testsuite>"
        let report = try parse(Data(xml.utf8)).get()
        XCTAssertEqual(report.results.map(\.name), ["testLog", "testAfter"])
        XCTAssertEqual(report.results.last?.status, .failed)
        let output = try XCTUnwrap(report.results.first?.systemOut)
        XCTAssertTrue(output.hasPrefix("<div><span class=a><div>"), String(output.prefix(40)))
        XCTAssertLessThanOrEqual(output.utf8.count, JUnitImporter().outputLimit + 64)
        XCTAssertTrue(output.hasSuffix("more bytes not stored]"), String(output.suffix(60)))
        XCTAssertTrue(report.recovered)
    }

    func testTextElementsAreRepairedAlikeEverywhere() {
        // The first repair, the run in the middle and the last bytes take different paths through the
        // reader; all must give the same text.
        let piece = "<div>1 < 2 &amp; 3 & 4 &#27; &#x41; &foo; \u{01}</span><system-outx>"
        let repairedPiece =
            "&lt;div>1 &lt; 2 &amp; 3 &amp; 4 \u{10FF1B} &#x41; &amp;foo; \u{10FF01}&lt;/span>&lt;system-outx>"
        let xml =
            "<testsuite><testcase name='t'><system-out>\(String(repeating: piece, count: 3000))</system-out>"
            + "</testcase></testsuite>"
        let reader = XMLRepairReader(data: Data(xml.utf8))
        let repaired = String(decoding: reader.readAll(), as: UTF8.self)
        XCTAssertEqual(
            repaired,
            "<testsuite><testcase name='t'><system-out>\(String(repeating: repairedPiece, count: 3000))</system-out>"
                + "</testcase></testsuite>")
        XCTAssertEqual(reader.repairs.lessThans, 4 * 3000)
        XCTAssertEqual(reader.repairs.ampersands, 2 * 3000)
        XCTAssertEqual(reader.repairs.controlCharacters, 2 * 3000)
        XCTAssertEqual(reader.repairs.firstColumn, 43)
        XCTAssertEqual(reader.column, xml.count + 1)
        XCTAssertEqual(XMLRepairReader.restore("\u{10FF1B}"), "\u{1B}")
    }

    func testTheRepairReaderStopsReadingAtTheLimit() {
        // Nothing past the offending element reaches the parser, however much follows.
        var read = 0
        let chunk = [UInt8](String(repeating: "<a>", count: 1000).utf8)
        let reader = XMLRepairReader(maxDepth: 10) { buffer, _ in
            guard read < 1000 else { return 0 }
            read += 1
            buffer.append(contentsOf: chunk)
            return chunk.count
        }
        let data = reader.readAll()
        XCTAssertEqual(String(decoding: data, as: UTF8.self), String(repeating: "<a>", count: 10) + "<a")
        XCTAssertEqual(reader.depthExceeded?.element, "a")
        XCTAssertEqual(read, 1, "the reader read one chunk, not the whole input")
    }
}
