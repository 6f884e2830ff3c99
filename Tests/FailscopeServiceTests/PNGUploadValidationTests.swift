import FailscopeModel
import FailscopeTesting
import Foundation
import HTTPServer
import XCTest

/// PNG uploads are decoded whole before they are stored: a well-formed header is not enough.
final class PNGUploadValidationTests: XCTestCase {
    private func put(_ bytes: [UInt8], to service: TestService) async -> Response {
        await service.send(
            .PUT, "/api/v1/artifacts/\(SHA256.hex(of: bytes))", contentType: "image/png", body: Data(bytes))
    }

    /// A PNG whose chunks are `png`'s with the IHDR replaced by one of `width`×`height`.
    private func lyingAbout(width: Int, height: Int, in png: [UInt8]) -> [UInt8] {
        var ihdr = TestPNG.bigEndian(UInt32(width)) + TestPNG.bigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]
        let ihdrEnd = 8 + 8 + 13 + 4
        return Array(png[0..<8]) + TestPNG.chunk("IHDR", ihdr) + Array(png[ihdrEnd...])
    }

    func testAHeaderThatLiesAboutItsSizeIsRefused() async throws {
        let service = try TestService()
        let honest = TestPNG.make(width: 20, height: 30)
        let stored = await put(honest, to: service)
        XCTAssertEqual(stored.status, .created)
        let lie = await put(lyingAbout(width: 5_000, height: 5_000, in: honest), to: service)
        XCTAssertEqual(lie.status, .unprocessableContent, lie.bodyText)
        XCTAssertEqual(lie.errorCode, "artifact_rejected")
    }

    func testADecompressionBombIsRefusedBeforeDecoding() async throws {
        let service = try TestService()
        let bomb = await put(lyingAbout(width: 16_000, height: 16_000, in: TestPNG.make(width: 4, height: 4)), to: service)
        XCTAssertEqual(bomb.status, .unprocessableContent, bomb.bodyText)
        XCTAssertTrue(bomb.bodyText.contains("too large") || bomb.bodyText.contains("pixels"), bomb.bodyText)
    }

    func testACorruptImageDataChunkIsRefused() async throws {
        let service = try TestService()
        var png = TestPNG.make(width: 8, height: 8)
        // Flip a byte inside the IDAT chunk's data: its CRC no longer matches.
        let idat = try XCTUnwrap((0..<png.count - 4).first { Array(png[$0..<$0 + 4]) == Array("IDAT".utf8) })
        png[idat + 6] ^= 0xFF
        let corrupt = await put(png, to: service)
        XCTAssertEqual(corrupt.status, .unprocessableContent, corrupt.bodyText)
        XCTAssertEqual(try service.store.artifacts.list(), [])
    }
}
