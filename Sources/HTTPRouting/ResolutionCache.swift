import HTTPServer
import Synchronization

/// Remembers what routing decided for recently seen (method, path) pairs, so a hot path (the same screenshot
/// fetched by every dashboard view) skips splitting, decoding and matching: one hash and one lock instead.
///
/// Routing is a pure function of the method, the raw path and the routes, which never change once the server
/// runs, so a remembered ``Router/Resolution`` is always what ``Router/resolve(method:path:)`` would return.
/// Bounded: at most ``capacity`` entries of paths up to ``longestPath`` bytes and methods up to 16 (longer ones
/// are resolved every time); when full, it is emptied and refills, so client-chosen paths cannot grow it.
final class ResolutionCache: Sendable {
    private struct Key: Hashable {
        let method: HTTPMethod
        let path: String
    }

    let capacity: Int
    let longestPath: Int
    private let entries = Mutex<[Key: Router.Resolution]>([:])

    init(capacity: Int = 1024, longestPath: Int = 256) {
        self.capacity = capacity
        self.longestPath = longestPath
    }

    /// The resolution of `method` and `path` by `router`, remembered or computed (and then remembered).
    func resolve(_ router: Router, method: HTTPMethod, path: String) -> Router.Resolution {
        guard path.utf8.count <= longestPath, method.rawValue.utf8.count <= 16 else {
            return router.resolve(method: method, path: path)
        }
        let key = Key(method: method, path: path)
        if let known = entries.withLock({ $0[key] }) { return known }
        let resolution = router.resolve(method: method, path: path)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = resolution
        }
        return resolution
    }

    /// The number of remembered entries (for tests).
    var count: Int { entries.withLock { $0.count } }
}
