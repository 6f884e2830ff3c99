import Foundation
import XCTest

@testable import PNGCodec
@testable import ScreenRaster

final class PNGCodecTests: XCTestCase {
    /// A canvas with flat areas, a gradient and anti-aliased shapes: every byte value appears.
    private func sampleCanvas(width: Int = 64, height: Int = 48) -> Canvas {
        var canvas = Canvas(width: width, height: height, background: .white)
        for x in 0..<width {
            canvas.fill(
                PixelRect(x: x, y: 0, width: 1, height: height / 2),
                color: RGBAColor(red: UInt8(x * 255 / (width - 1)), green: UInt8(x * 4 % 256), blue: 200))
        }
        canvas.fillRoundedRect(CGRect(x: 5, y: 20, width: 40, height: 20), radius: 7, color: RGBAColor(hex: 0x007AFF))
        canvas.fillCircle(center: CGPoint(x: 50, y: 36), radius: 9.3, color: RGBAColor(hex: 0xFF3B30, opacity: 0.6))
        return canvas
    }

    func testRoundTripIsLossless() throws {
        let canvas = sampleCanvas()
        for options in [
            PNGEncoder.Options.screen, .libpngDefault,
            .init(compressionLevel: 6, filters: .perRowNoneSubUp, strategy: .default),
            .init(compressionLevel: 6, filters: .perRowSubUp, strategy: .filtered),
            .init(compressionLevel: 1, filters: .sub, strategy: .rle),
        ] {
            let png = try PNGEncoder(options: options).encode(canvas)
            let image = try PNGDecoder().decode(png)
            XCTAssertEqual(image.width, 64)
            XCTAssertEqual(image.height, 48)
            var expected: [UInt8] = []
            let rgb = canvas.rgbBytes()
            for i in 0..<(64 * 48) { expected += [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], 255] }
            XCTAssertEqual(image.pixels, expected, "round trip with \(options)")
        }
    }

    func testTinyImagesRoundTripWithPerRowFilters() throws {
        for (width, height) in [(1, 1), (1, 5), (5, 1), (2, 3)] {
            let rgb = (0..<(width * height * 3)).map { UInt8(($0 * 53) % 256) }
            for filters in [PNGEncoder.Filters.perRowRepeatUp, .perRowNoneSubUp, .perRowSubUp] {
                let encoder = PNGEncoder(options: .init(compressionLevel: 6, filters: filters, strategy: .default))
                let image = try PNGDecoder().decode(try encoder.encode(rgb: rgb, width: width, height: height))
                XCTAssertEqual(image.width, width)
                XCTAssertEqual(image.pixel(x: width - 1, y: height - 1).red, rgb[(width * height - 1) * 3])
            }
        }
    }

    func testScreenOptionsBeatUnfilteredOnARenderedScreen() throws {
        let canvas = try ScreenRendererTests.shared.get().render(SampleScreens.catalog(.iPhone15))
        let tuned = try PNGEncoder(options: .screen).encode(canvas)
        let unfiltered = try PNGEncoder(options: .init(compressionLevel: 6, filters: .none, strategy: .default))
            .encode(canvas)
        XCTAssertLessThan(tuned.count, unfiltered.count)
        XCTAssertLessThan(tuned.count, 200_000, "a flat UI screen at 1179×2556 stays small")
    }

    func testEncodesRGBWithoutAlpha() throws {
        let png = try PNGEncoder().encode(sampleCanvas())
        let header = try PNGDecoder.header(of: png)
        XCTAssertEqual(header, PNGHeader(width: 64, height: 48, bitDepth: 8, colorType: .rgb, isInterlaced: false))
        XCTAssertEqual(Array(png.prefix(8)), PNGDecoder.signature)
    }

    func testEncodeFromPackedRGB() throws {
        let rgb: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]
        let image = try PNGDecoder().decode(try PNGEncoder().encode(rgb: rgb, width: 2, height: 2))
        XCTAssertEqual(image.pixel(x: 1, y: 0), RGBAColor(hex: 0x00FF00))
        XCTAssertEqual(image.pixel(x: 1, y: 1), RGBAColor(hex: 0x090909))
    }

    /// PNGs written by Pillow in other colour types and depths, as other tools would upload them.
    func testDecodesOtherColourTypesToRGBA() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        func decode(_ name: String) throws -> PNGImage {
            try PNGDecoder().decode(try Data(contentsOf: fixtures.appendingPathComponent(name)))
        }
        let gray1 = try decode("gray-1bit.png")
        XCTAssertEqual(
            try PNGDecoder.header(of: Data(contentsOf: fixtures.appendingPathComponent("gray-1bit.png"))).bitDepth, 1)
        XCTAssertEqual([gray1.width, gray1.height], [8, 6])
        XCTAssertEqual(gray1.pixel(x: 0, y: 3), RGBAColor(hex: 0x000000))
        XCTAssertEqual(gray1.pixel(x: 7, y: 3), RGBAColor(hex: 0xFFFFFF))
        let palette = try decode("palette-trns.png")
        XCTAssertEqual(palette.pixel(x: 3, y: 0).alpha, 0, "tRNS index is transparent")
        XCTAssertEqual(palette.pixel(x: 3, y: 2), RGBAColor(hex: 0xFF0000))
        XCTAssertEqual(palette.pixel(x: 3, y: 5), RGBAColor(hex: 0x0000FF))
        let gray16 = try decode("gray-16bit.png")
        XCTAssertEqual(gray16.pixel(x: 0, y: 0), RGBAColor(hex: 0xFFFFFF))
        XCTAssertEqual(gray16.pixel(x: 1, y: 0), RGBAColor(hex: 0x808080), "16 bits reduced to the high byte")
        let rgba = try decode("rgba.png")
        XCTAssertEqual(rgba.pixel(x: 0, y: 0), RGBAColor(red: 0, green: 255, blue: 0, alpha: 128), "straight alpha")
        XCTAssertEqual(rgba.pixel(x: 7, y: 5), RGBAColor(red: 10, green: 20, blue: 30))
    }

    func testRejectsDataThatIsNotPNG() {
        XCTAssertThrowsError(try PNGDecoder().decode(Data("GIF89a not a png at all".utf8))) {
            XCTAssertEqual($0 as? PNGError, .notPNG)
        }
        XCTAssertThrowsError(try PNGDecoder.header(of: Data())) { XCTAssertEqual($0 as? PNGError, .notPNG) }
        XCTAssertThrowsError(try PNGDecoder.header(of: Data("<html>".utf8))) {
            XCTAssertEqual($0 as? PNGError, .notPNG)
        }
    }

    func testRejectsTruncatedData() throws {
        let png = try PNGEncoder().encode(sampleCanvas())
        for length in [4, 20, 40, png.count / 2, png.count - 13] {
            XCTAssertThrowsError(try PNGDecoder().decode(png.prefix(length)), "cut at \(length)") {
                XCTAssertEqual($0 as? PNGError, .truncated, "cut at \(length) of \(png.count): \($0)")
            }
        }
    }

    func testRejectsCorruptImageData() throws {
        var png = try PNGEncoder().encode(sampleCanvas())
        let middle = png.count / 2
        png[middle] ^= 0xFF
        png[middle + 1] ^= 0x55
        XCTAssertThrowsError(try PNGDecoder().decode(png)) { error in
            guard case .libpng(let message) = error as? PNGError else {
                return XCTFail("expected a libpng error, got \(error)")
            }
            XCTAssertFalse(message.isEmpty)
        }
    }

    func testCorruptedBytesAnywhereGiveAnErrorOrAnImageNeverACrash() throws {
        let png = try PNGEncoder().encode(sampleCanvas(width: 40, height: 30))
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for round in 0..<400 {
            var damaged = png
            let position = round < png.count ? round : Int.random(in: 0..<png.count, using: &generator)
            damaged[position] ^= UInt8.random(in: 1...255, using: &generator)
            do {
                let image = try PNGDecoder(maxDimension: 1000, maxPixelCount: 100_000).decode(damaged)
                XCTAssertEqual(image.pixels.count, image.width * image.height * 4)
            } catch {
                rejected += 1
            }
        }
        XCTAssertGreaterThan(rejected, 300, "CRCs catch nearly every flipped byte")
    }

    /// `verify` reads every row as `decode` does, keeping one: it accepts and refuses exactly the same bytes.
    func testVerifyAgreesWithDecodeWithoutKeepingTheImage() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        for name in ["gray-1bit.png", "palette-trns.png", "gray-16bit.png", "rgba.png"] {
            let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let header = try PNGDecoder().verify(data)
            let image = try PNGDecoder().decode(data)
            XCTAssertEqual([header.width, header.height], [image.width, image.height], name)
        }
        let png = try PNGEncoder().encode(sampleCanvas(width: 40, height: 30))
        XCTAssertThrowsError(try PNGDecoder().verify(png.prefix(png.count / 2))) {
            XCTAssertEqual($0 as? PNGError, .truncated)
        }
        XCTAssertThrowsError(try PNGDecoder(maxPixelCount: 1000).verify(png)) { error in
            guard case .tooLarge(40, 30, _) = error as? PNGError else { return XCTFail("got \(error)") }
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var damaged = png
            let position = round < png.count ? round : Int.random(in: 0..<png.count, using: &generator)
            damaged[position] ^= UInt8.random(in: 1...255, using: &generator)
            let decoder = PNGDecoder(maxDimension: 1000, maxPixelCount: 100_000)
            let decoded = (try? decoder.decode(damaged)) != nil
            let verified = (try? decoder.verify(damaged)) != nil
            XCTAssertEqual(verified, decoded, "byte \(position) damaged")
        }
    }

    func testRejectsInsaneDimensionsBeforeDecoding() throws {
        // A valid header claiming 100000×100000 pixels (would be 40 GB decoded), no image data.
        var png = Data(PNGDecoder.signature)
        let ihdr: [UInt8] = Array("IHDR".utf8) + be32(100_000) + be32(100_000) + [8, 2, 0, 0, 0]
        png.append(contentsOf: be32(13) + ihdr + be32(CRC32.checksum(ihdr)))
        XCTAssertEqual(try PNGDecoder.header(of: png).width, 100_000)
        XCTAssertThrowsError(try PNGDecoder().validate(png)) { error in
            guard case .tooLarge(100_000, 100_000, _) = error as? PNGError else {
                return XCTFail("expected tooLarge, got \(error)")
            }
        }
        XCTAssertThrowsError(try PNGDecoder().decode(png))
        // A smaller limit applies to real images too.
        let small = try PNGEncoder().encode(sampleCanvas())
        XCTAssertThrowsError(try PNGDecoder(maxDimension: 50).decode(small)) { error in
            guard case .tooLarge(64, 48, _) = error as? PNGError else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try PNGDecoder(maxPixelCount: 1000).decode(small))
    }

    func testRejectsAHeaderWithABadCRCOrFields() throws {
        var png = try PNGEncoder().encode(sampleCanvas())
        png[17] ^= 0x01  // inside the width: the IHDR CRC no longer matches
        XCTAssertThrowsError(try PNGDecoder.header(of: png)) {
            XCTAssertEqual($0 as? PNGError, .invalidHeader("IHDR CRC mismatch"))
        }
        var header = Data(PNGDecoder.signature)
        let ihdr: [UInt8] = Array("IHDR".utf8) + be32(4) + be32(4) + [3, 2, 0, 0, 0]  // RGB at 3 bits
        header.append(contentsOf: be32(13) + ihdr + be32(CRC32.checksum(ihdr)))
        XCTAssertThrowsError(try PNGDecoder.header(of: header)) { error in
            guard case .invalidHeader = error as? PNGError else { return XCTFail("got \(error)") }
        }
    }

    func testCRCMatchesThePNGSpecification() {
        XCTAssertEqual(CRC32.checksum(Array("IEND".utf8)), 0xAE42_6082)
    }

    func testPngcheckAcceptsTheOutput() throws {
        guard
            let pngcheck = ["/usr/bin/pngcheck", "/usr/local/bin/pngcheck"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw XCTSkip("pngcheck is not installed (Debian package pngcheck)")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sample.png")
        try PNGEncoder().encode(sampleCanvas(width: 300, height: 200)).write(to: file)
        let (status, output) = try runProcess(pngcheck, ["-v", file.path])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("No errors detected"), output)
    }

    private func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}

/// Runs a program to completion and returns its exit status and combined output.
func runProcess(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
