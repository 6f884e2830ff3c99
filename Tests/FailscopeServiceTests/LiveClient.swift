import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A blocking HTTP client for live-port tests: one URLSession request, waited for with a deadline.
struct LiveClient: Sendable {
    let base: String
    let token: String?

    struct Reply: Sendable {
        var status: Int
        var body: Data
        var headers: [String: String]
    }

    /// Sends one request; `nil` when the connection failed or the deadline passed.
    func send(
        _ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json",
        timeout: Double = 10
    ) -> Reply? {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        let box = ReplyBox()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            if let response = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (key, value) in response.allHeaderFields {
                    headers[String(describing: key).lowercased()] = String(describing: value)
                }
                box.set(Reply(status: response.statusCode, body: data ?? Data(), headers: headers))
            }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 1) == .success else { return nil }
        return box.get()
    }
}

/// A value written by one thread and read by another, under a lock.
final class ReplyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var reply: LiveClient.Reply?
    func set(_ value: LiveClient.Reply) { lock.withLock { reply = value } }
    func get() -> LiveClient.Reply? { lock.withLock { reply } }
}

/// A `failscope serve` child process on a free loopback port (`--port 0`), its port read from stderr.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var log = ""
    private let ready = DispatchSemaphore(value: 0)
    private(set) var port = 0

    /// The built `failscope` binary beside the test bundle (`swift build --build-tests` builds both).
    static func binary() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("failscope")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw XCTSkip("the failscope binary is not built next to the tests (run swift build --build-tests)")
    }

    /// Starts `failscope serve` on `data` with `token`, `arguments` after the usual ones, and `environment` added to
    /// this process's.
    init(data: URL, token: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        process.executableURL = try Self.binary()
        process.arguments =
            ["serve", "--port", "0", "--data", data.path, "--upload-token", token, "--threads", "4"] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.log += String(decoding: chunk, as: UTF8.self) }
            self.checkReady()
        }
        try process.run()
        guard ready.wait(timeout: .now() + 20) == .success else {
            process.terminate()
            throw NSError(
                domain: "ServeProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "not ready: \(output)"])
        }
    }

    var output: String { lock.withLock { log } }

    private func checkReady() {
        lock.withLock {
            guard port == 0, let range = log.range(of: "listening on http://127.0.0.1:") else { return }
            let digits = log[range.upperBound...].prefix { $0.isNumber }
            if let value = Int(digits), log[range.upperBound...].dropFirst(digits.count).first == "\n" {
                port = value
                ready.signal()
            }
        }
    }

    /// Sends `signal` and waits (bounded) for the process to end; returns its termination status.
    @discardableResult
    func stop(signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        let exited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            self.process.waitUntilExit()
            exited.signal()
        }
        if exited.wait(timeout: .now() + 20) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
        // The last lines may still be in the pipe: read them before the handler goes.
        errorPipe.fileHandleForReading.readabilityHandler = nil
        let rest = errorPipe.fileHandleForReading.readDataToEndOfFile()
        lock.withLock { log += String(decoding: rest, as: UTF8.self) }
        return process.terminationStatus
    }
}
