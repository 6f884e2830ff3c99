// http-bench: the servers measured by scripts/bench/http.sh.
//
// Usage: http-bench [--port N] [--threads N] [--root DIR] [--log] [--request-timeout S] [--connection-memory BYTES]
//        http-bench --service DATA_DIR [--artifact PNG]... [--artifact-memory BYTES] [--port N] [--threads N] [--log]
// Transport mode (HTTPServer alone):
//   GET /tiny            a fixed small text body (the size of the bench's nginx file)
//   GET /files/{path...} StaticFiles over --root
//   POST /echo           replies with the body length (1 MiB limit)
// Service mode (the whole `failscope serve` application over a store in DATA_DIR): each --artifact file is
// stored first (verified like an upload), so `GET /artifacts/{sha256}.png` serves it.
// Prints "listening on PORT" to stderr once bound; stops on SIGINT/SIGTERM.

import FailscopeModel
import FailscopeService
import FailscopeStore
import Foundation
import HTTPRouting
import HTTPServer

var port = 8080
var threads = ProcessInfo.processInfo.activeProcessorCount
var root = FileManager.default.currentDirectoryPath
var logging = false
var requestTimeout = 60.0
var connectionMemory = HTTPServerConfiguration().connectionMemoryLimit
var serviceDirectory: String?
var artifacts: [String] = []
var artifactMemory = ServiceConfiguration().artifactMemoryBytes
let usage =
    "usage: http-bench [--port N] [--threads N] [--root DIR] [--log] [--request-timeout S] [--connection-memory BYTES]\n"
    + "       http-bench --service DATA_DIR [--artifact PNG]... [--artifact-memory BYTES] [--port N] [--threads N]"
    + " [--log]\n"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = Int(arguments.popFirst() ?? "") ?? port
    case "--threads": threads = Int(arguments.popFirst() ?? "") ?? threads
    case "--root": root = arguments.popFirst() ?? root
    case "--log": logging = true
    case "--connection-memory": connectionMemory = Int(arguments.popFirst() ?? "") ?? connectionMemory
    case "--request-timeout": requestTimeout = Double(arguments.popFirst() ?? "") ?? requestTimeout
    case "--service": serviceDirectory = arguments.popFirst()
    case "--artifact-memory": artifactMemory = Int(arguments.popFirst() ?? "") ?? artifactMemory
    case "--artifact": artifacts += arguments.popFirst().map { [$0] } ?? []
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(64)
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("http-bench: \(message)\n".utf8))
    exit(1)
}

let accessLog: any AccessLog = logging ? StandardErrorAccessLog() : DiscardingAccessLog()

if let serviceDirectory {
    do {
        let server = try FailscopeServer(
            dataDirectory: URL(fileURLWithPath: serviceDirectory), port: port, threadCount: threads,
            configuration: ServiceConfiguration(accessLog: accessLog, artifactMemoryBytes: artifactMemory))
        for path in artifacts {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let stored = try server.application.store.putArtifact(
                bytes, sha256: SHA256.hex(of: bytes), mediaType: "image/png")
            FileHandle.standardError.write(Data("stored artifact \(stored.artifact.sha256)\n".utf8))
        }
        FileHandle.standardError.write(Data("listening on \(server.port)\n".utf8))
        let signals = server.installSignalHandlers()
        server.waitUntilStopped()
        signals.cancel()
    } catch {
        fail("\(error)")
    }
    exit(0)
}

var router = Router(accessLog: accessLog)
let tiny = Data("hello from failscope\n".utf8)
router.get("/tiny") { _ in .bytes(tiny, contentType: "text/plain") }
router.get("/files/{path...}", StaticFiles(root: root, cacheControl: "public, max-age=31536000, immutable").respond)
router.post("/echo", maxBodyBytes: 1 << 20) { request in .text("\(request.body.count)") }

do {
    let server = try HTTPServer(
        responder: router,
        configuration: HTTPServerConfiguration(
            port: port, threadCount: threads, requestTimeout: requestTimeout,
            connectionMemoryLimit: connectionMemory))
    FileHandle.standardError.write(Data("listening on \(server.port)\n".utf8))
    let signals = ShutdownSignals.install { _ in server.shutdown(gracePeriod: 2) }
    server.waitUntilStopped()
    signals.cancel()
} catch {
    fail("\(error)")
}
