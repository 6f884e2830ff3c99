import Foundation
import XCTest

@testable import ScreenRaster

/// Compares rendered screens with the PNGs in `References/`, as swift-snapshot-testing does.
///
/// - A pixel differs when any channel differs by more than `channelTolerance`; the images match when
///   at most `pixelTolerance` of the pixels differ: 0.01 %, 100 pixels of an iPhone SE screen, room
///   for anti-aliasing noise, while changing one button's label ("Log In" to "Sign In") moves ~1,800.
///   The references were rendered with Debian 12's FreeType 2.12 and DejaVu Sans 2.37.
/// - `FAILSCOPE_RECORD_REFERENCES=1` writes the reference instead of comparing (and fails the test, so
///   that a recording run is never mistaken for a passing one). Never when `CI` is set.
/// - On a mismatch the actual image and a difference image (differing pixels red over a faded copy)
///   go to `$FAILSCOPE_TEST_OUTPUT`, else `.build/test-output/ScreenRasterTests/` in the package.
enum ReferenceImages {
    static let channelTolerance = 24
    static let pixelTolerance = 0.0001

    static var referenceDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References")
    }

    static var outputDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["FAILSCOPE_TEST_OUTPUT"], !dir.isEmpty {
            return URL(fileURLWithPath: dir).appendingPathComponent("ScreenRasterTests")
        }
        let package = referenceDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent(".build/test-output/ScreenRasterTests")
    }

    /// Whether `environment` asks to record references: `FAILSCOPE_RECORD_REFERENCES=1` and no `CI`.
    static func isRecording(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["FAILSCOPE_RECORD_REFERENCES"] == "1" && (environment["CI"] ?? "").isEmpty
    }

    static func assertMatches(
        _ canvas: Canvas, named name: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let reference = referenceDirectory.appendingPathComponent("\(name).png")
        let png = try PNGEncoder().encode(canvas)
        if isRecording() {
            try FileManager.default.createDirectory(at: referenceDirectory, withIntermediateDirectories: true)
            try png.write(to: reference)
            XCTFail(
                "Recorded reference \(reference.path); run again without FAILSCOPE_RECORD_REFERENCES", file: file,
                line: line)
            return
        }
        guard let expectedData = FileManager.default.contents(atPath: reference.path) else {
            XCTFail(
                "No reference image \(reference.path); record it with FAILSCOPE_RECORD_REFERENCES=1 (not in CI)",
                file: file, line: line)
            return
        }
        let expected = try PNGDecoder().decode(expectedData)
        let actual = try PNGDecoder().decode(png)
        guard expected.width == actual.width, expected.height == actual.height else {
            try writeFailure(name: name, actual: png, diff: nil)
            XCTFail(
                "\(name): size \(actual.width)×\(actual.height) differs from the reference's \(expected.width)×\(expected.height)",
                file: file, line: line)
            return
        }
        let (differing, diff) = difference(actual, expected)
        let fraction = Double(differing) / Double(actual.width * actual.height)
        if fraction > pixelTolerance {
            let diffPNG = try PNGEncoder().encode(rgb: diff, width: actual.width, height: actual.height)
            let folder = try writeFailure(name: name, actual: png, diff: diffPNG)
            XCTFail(
                "\(name): \(differing) pixels (\(String(format: "%.3f", fraction * 100)) %) differ from \(reference.path); "
                    + "actual and difference images in \(folder.path)",
                file: file, line: line)
        }
    }

    /// The number of differing pixels and a difference image (RGB): differing pixels red, the others a
    /// faded grey copy of the actual image.
    static func difference(_ actual: PNGImage, _ expected: PNGImage) -> (differing: Int, diff: [UInt8]) {
        precondition(actual.width == expected.width && actual.height == expected.height)
        var differing = 0
        var diff = [UInt8](repeating: 0, count: actual.width * actual.height * 3)
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                for i in 0..<(actual.width * actual.height) {
                    var worst = 0
                    for c in 0..<3 { worst = max(worst, abs(Int(a[i * 4 + c]) - Int(e[i * 4 + c]))) }
                    if worst > channelTolerance {
                        differing += 1
                        diff[i * 3] = 255
                    } else {
                        let grey = UInt8(200 + Int(a[i * 4 + 1]) * 55 / 255)
                        diff[i * 3] = grey
                        diff[i * 3 + 1] = grey
                        diff[i * 3 + 2] = grey
                    }
                }
            }
        }
        return (differing, diff)
    }

    @discardableResult
    static func writeFailure(name: String, actual: Data, diff: Data?) throws -> URL {
        let folder = outputDirectory
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try actual.write(to: folder.appendingPathComponent("\(name).actual.png"))
        if let diff { try diff.write(to: folder.appendingPathComponent("\(name).diff.png")) }
        return folder
    }
}
