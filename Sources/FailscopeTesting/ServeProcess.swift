import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `failscope serve` as a child process on loopback (a free port by default), its port read from the
/// "listening on http://127.0.0.1:PORT" line it prints on stderr, for as long as a test needs it.
public final class ServeProcess: @unchecked Sendable {
    /// The child process (its `processIdentifier` for `/proc`).
    public let process = Process()
    public let dataDirectory: URL
    private let errorPipe = Pipe()
    private let lock = NSLock()
    private var log = ""
    private let ready = DispatchSemaphore(value: 0)
    private var listeningPort = 0

    /// The port it listens on.
    public var port: Int { lock.withLock { listeningPort } }
    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// What it has printed on stderr so far.
    public var output: String { lock.withLock { log } }

    /// Starts `failscope serve --host 127.0.0.1 --port PORT --data DATA` followed by `arguments`, with
    /// `environment` (this process's when `nil`), and waits at most 30 s for its "listening on" line.
    /// - Throws: an error with its output when the line does not come (it is stopped then).
    public init(
        data: URL, port: Int = 0, arguments: [String] = [], environment: [String: String]? = nil,
        binary: URL = BuildProducts.failscope
    ) throws {
        dataDirectory = data
        process.executableURL = binary
        process.arguments =
            ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data.path] + arguments
        if let environment { process.environment = environment }
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        errorPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock {
                self.log += String(decoding: chunk, as: UTF8.self)
                self.readPort()
            }
        }
        try process.run()
        guard ready.wait(timeout: .now() + 30) == .success else {
            stop(signal: SIGKILL)
            throw NSError(
                domain: "ServeProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "not listening: \(output)"])
        }
    }

    /// The port of the first complete "listening on" line (its digits followed by the line's end). Under `lock`.
    private func readPort() {
        guard listeningPort == 0, let range = log.range(of: "listening on http://127.0.0.1:") else { return }
        let digits = log[range.upperBound...].prefix { $0.isNumber }
        if let value = Int(digits), log[range.upperBound...].dropFirst(digits.count).first == "\n" {
            listeningPort = value
            ready.signal()
        }
    }

    /// Sends `signal` (SIGTERM: a graceful stop; SIGKILL: a crash) and waits for the end (after 20 s it
    /// kills it); returns its termination status. The output's last lines are read before it returns.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning {
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
        }
        errorPipe.fileHandleForReading.readabilityHandler = nil
        let rest = errorPipe.fileHandleForReading.readDataToEndOfFile()
        lock.withLock { log += String(decoding: rest, as: UTF8.self) }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
