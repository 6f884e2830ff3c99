import FailscopeModel
import FailscopeService
import FailscopeStore
import Foundation
import HTTPServer
import XCTest

let uploadToken = "upload-secret-1"
let readToken = "read-secret-1"

/// An application over a fresh store in a temporary folder, driven in-process.
final class TestService {
    let directory: URL
    let store: FailscopeStore
    let application: FailscopeApplication
    let log = InMemoryAccessLog()

    init(uploadTokens: [String] = [uploadToken], readToken: String? = nil, webDirectory: URL? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-service-\(UUID().uuidString)")
        store = try FailscopeStore(directory: directory)
        application = FailscopeApplication.build(
            ServiceConfiguration(
                uploadTokens: uploadTokens, readToken: readToken, webDirectory: webDirectory,
                maxRunBodyBytes: 4_096, maxBatchBodyBytes: 256 << 10, maxArtifactBytes: 1 << 20, accessLog: log),
            store: store)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func send(
        _ method: HTTPMethod, _ target: String, token: String? = uploadToken, contentType: String? = "application/json",
        body: Data = Data(), headers extra: HTTPHeaders = [:]
    ) async -> Response {
        var headers = extra
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let contentType, !body.isEmpty { headers["Content-Type"] = contentType }
        return await application.router.respond(
            to: Request(method: method, target: target, headers: headers, body: body))
    }

    func send<T: Encodable>(_ method: HTTPMethod, _ target: String, json value: T, token: String? = uploadToken)
        async throws
        -> Response
    {
        await send(method, target, token: token, body: try WireCoding.encoder().encode(value))
    }
}

extension Response {
    func decode<T: Decodable>(_ type: T.Type, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        do {
            return try WireCoding.decoder().decode(T.self, from: try bodyBytes())
        } catch {
            XCTFail("cannot decode \(T.self) from \(status): \(bodyText)", file: file, line: line)
            throw error
        }
    }

    /// The `error.code` of a JSON error body.
    var errorCode: String? { (try? decode(APIErrorBody.self))?.error.code }
}

let referenceDate = Date(timeIntervalSince1970: 1_764_400_000)

func sampleRun(id: String = "run-1", project: String = "Shop", branch: String = "main") -> Run {
    Run(id: id, project: project, branch: branch, commit: "abc123", device: "iPhone 15", startedAt: referenceDate)
}

func failingResult(name: String = "testWrongPassword", screenshot: String? = nil) -> TestResult {
    TestResult(
        suite: "LoginTests", name: name, status: .failed, startedAt: referenceDate.addingTimeInterval(3),
        duration: 1.25,
        failures: [
            Failure(
                message: "Expected the error label", location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                page: "LoginPage", action: "tapLogin()",
                callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40),
                elementFrame: Frame(x: 16, y: 300, width: 361, height: 50))
        ],
        trail: [
            TrailStep(
                page: "LoginPage", action: "tapLogin()",
                callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40))
        ],
        artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 10, width: 4, height: 3)] }
            ?? [])
}

/// A real PNG (8-bit RGB, stored deflate blocks, correct CRCs) of one colour, for artifact tests.
enum TestPNG {
    static func make(width: Int, height: Int, red: UInt8 = 200) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += [red, 40, 90] }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        var ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        ihdr += [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
