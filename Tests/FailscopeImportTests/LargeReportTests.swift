import FailscopeModel
import XCTest

@testable import FailscopeImport

/// A report large in bytes (the shape of jenkinsci/junit-plugin#467: one huge `<system-out>`) imports with
/// exact counts, truncated output and memory that does not grow with the file.
final class LargeReportTests: XCTestCase {
    /// Writes the shape of jenkinsci/junit-plugin#467's report: one case with `megabytes` of CDATA
    /// output, then `cases` small cases of which the middle one fails.
    private func writeReport(to path: String, megabytes: Int, cases: Int) throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        handle.write(
            Data(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"SoakUITests\" tests=\"\(cases + 1)\" failures=\"1\" time=\"171.077\">\n  <testcase name=\"testLongSoak\" classname=\"SoakUITests\" time=\"171.075\">\n    <system-out><![CDATA["
                    .utf8))
        let line = Data(
            (String(repeating: "f41oRmiWKJjZJS08EyR3fNQ6QuAKIBn7z6CIG0gKK3Z3wrzvpg/IJlPUD+ODVSm18udqzL72oBjs", count: 1)
                + "\n").utf8)
        var block = Data()
        while block.count < 1 << 20 { block.append(line) }
        for _ in 0..<megabytes { handle.write(block) }
        handle.write(Data("]]></system-out>\n  </testcase>\n".utf8))
        var tail = ""
        for index in 0..<cases {
            if index == cases / 2 {
                tail +=
                    "  <testcase name=\"testScreen\(index)\" classname=\"SoakUITests\" time=\"0.5\"><failure message=\"XCTAssertTrue failed\">SoakUITests.swift:\(index)</failure></testcase>\n"
            } else {
                tail += "  <testcase name=\"testScreen\(index)\" classname=\"SoakUITests\" time=\"0.5\"/>\n"
            }
        }
        handle.write(Data((tail + "</testsuite>\n").utf8))
    }

    /// Peak resident memory of this process (Linux `VmHWM`), in bytes; `nil` elsewhere.
    private func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }

    func testThirtyMegabyteReportStreamsWithinBoundedMemory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.xml").path
        try writeReport(to: path, megabytes: 30, cases: 5000)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber).intValue
        XCTAssertGreaterThan(size, 30 << 20)

        let before = peakResidentBytes()
        let progressCalls = ProgressCounter()
        let report = try ReportImporter().parse(fileAt: path) { read, total in
            progressCalls.record(read: read, total: total)
        }
        let after = peakResidentBytes()

        XCTAssertEqual(report.summary.tests, 5001)
        XCTAssertEqual(report.summary.failures, 1)
        let failing = try XCTUnwrap(report.tests.first { $0.final.status == .failed })
        XCTAssertEqual(failing.final.name, "testScreen2500")
        XCTAssertEqual(failing.final.failures.first?.location, SourceLocation(file: "SoakUITests.swift", line: 2500))
        let output = try XCTUnwrap(report.results.first { $0.name == "testLongSoak" }?.systemOut)
        XCTAssertLessThan(output.utf8.count, 17 * 1024)
        XCTAssertTrue(output.hasSuffix("more bytes not stored]"), String(output.suffix(80)))
        XCTAssertGreaterThan(progressCalls.calls, 1)
        XCTAssertEqual(progressCalls.lastTotal, Int64(size))
        if let before, let after {
            // The file never sits in memory: the peak grows far less than the file's size.
            XCTAssertLessThan(
                after - before, size / 3, "peak RSS grew by \(after - before) bytes for a \(size)-byte file")
        }
    }
}

/// Counts progress callbacks (called on the parsing thread).
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var total: Int64 = 0

    func record(read: Int64, total: Int64) {
        lock.lock()
        count += 1
        self.total = total
        lock.unlock()
    }

    var calls: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    var lastTotal: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}
