// http-bench: a tiny server over HTTPServer for scripts/bench/http.sh.
//
// Usage: http-bench [--port N] [--threads N] [--root DIR] [--log] [--request-timeout S] [--connection-memory BYTES]
//   GET /tiny            a fixed small text body (the size of the bench's nginx file)
//   GET /files/{path...} StaticFiles over --root
//   POST /echo           replies with the body length (1 MiB limit)
// Prints "listening on PORT" to stderr once bound; stops on SIGINT/SIGTERM.

import Foundation
import HTTPServer

var port = 8080
var threads = ProcessInfo.processInfo.activeProcessorCount
var root = FileManager.default.currentDirectoryPath
var logging = false
var requestTimeout = 60.0
var connectionMemory = HTTPServerConfiguration().connectionMemoryLimit
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = Int(arguments.popFirst() ?? "") ?? port
    case "--threads": threads = Int(arguments.popFirst() ?? "") ?? threads
    case "--root": root = arguments.popFirst() ?? root
    case "--log": logging = true
    case "--connection-memory": connectionMemory = Int(arguments.popFirst() ?? "") ?? connectionMemory
    case "--request-timeout": requestTimeout = Double(arguments.popFirst() ?? "") ?? requestTimeout
    default:
        FileHandle.standardError.write(
            Data(
                "usage: http-bench [--port N] [--threads N] [--root DIR] [--log] [--request-timeout S] [--connection-memory BYTES]\n"
                    .utf8))
        exit(64)
    }
}

var router = Router(accessLog: logging ? StandardErrorAccessLog() : DiscardingAccessLog())
let tiny = Data("hello from failscope\n".utf8)
router.get("/tiny") { _ in .bytes(tiny, contentType: "text/plain") }
router.get("/files/{path...}", StaticFiles(root: root, cacheControl: "public, max-age=31536000, immutable").respond)
router.post("/echo", maxBodyBytes: 1 << 20) { request in .text("\(request.body.count)") }

do {
    let server = try HTTPServer(
        router: router,
        configuration: HTTPServerConfiguration(
            port: port, threadCount: threads, requestTimeout: requestTimeout,
            connectionMemoryLimit: connectionMemory))
    FileHandle.standardError.write(Data("listening on \(server.port)\n".utf8))
    let signals = ShutdownSignals.install { _ in server.shutdown(gracePeriod: 2) }
    server.waitUntilStopped()
    signals.cancel()
} catch {
    FileHandle.standardError.write(Data("http-bench: \(error)\n".utf8))
    exit(1)
}
