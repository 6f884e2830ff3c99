import FailscopeTesting
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

extension ServeProcess {
    /// `failscope serve` on a free loopback port with `token` as its upload token and 4 worker threads.
    convenience init(data: URL, token: String) throws {
        try self.init(data: data, arguments: ["--upload-token", token, "--threads", "4"])
    }
}
