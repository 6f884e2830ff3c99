import CMicroHTTPD
import Synchronization

/// A complete 200-style response (status, header fields, shared body) for a hot, immutable resource: the transport
/// builds one libmicrohttpd response object from it on first use and queues that same object on every connection
/// that sends it (libmicrohttpd counts its references), so sending it again allocates nothing and copies nothing.
///
/// Its header fields are fixed, so it is sent without the per-request `X-Request-Id` (the access log line still
/// carries the id). While the server drains for shutdown it is sent as an ordinary response instead, because
/// those need `Connection: close`. Return it with ``Response/init(prepared:)``.
public final class PreparedResponse: Sendable {
    public let status: HTTPStatus
    /// The header fields, without `Content-Length` and `Date` (the transport adds them).
    public let headers: HTTPHeaders
    public let body: SharedBytes
    /// The libmicrohttpd response (`struct MHD_Response *`), made on first use; this object holds one reference.
    private let native = Mutex<UnsafeMutableRawPointer?>(nil)

    /// A response of `status`, `headers` (plus `X-Content-Type-Options: nosniff` when absent) and `body`.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders, body: SharedBytes) {
        self.status = status
        var headers = headers
        if !headers.contains("X-Content-Type-Options") { headers.add("X-Content-Type-Options", "nosniff") }
        self.headers = headers
        self.body = body
    }

    deinit {
        if let native = native.withLock({ $0 }) { MHD_destroy_response(OpaquePointer(native)) }
    }

    /// The libmicrohttpd response, made once (its body keeps ``body`` alive until libmicrohttpd frees it).
    func nativeResponse() -> OpaquePointer? {
        let address = native.withLock { native -> UInt? in
            if let native { return UInt(bitPattern: native) }
            guard let made = makeNativeResponse(body) else { return nil }
            addHeaders(headers, to: made)
            native = UnsafeMutableRawPointer(made)
            return UInt(bitPattern: native)
        }
        return address.flatMap { OpaquePointer(bitPattern: $0) }
    }
}

/// A libmicrohttpd response over `bytes` (not copied; released when libmicrohttpd frees the response).
func makeNativeResponse(_ bytes: SharedBytes) -> OpaquePointer? {
    let retained = Unmanaged.passRetained(bytes)
    guard
        let native = MHD_create_response_from_buffer_with_free_callback_cls(
            bytes.count, bytes.baseAddress, releaseSharedBytes, retained.toOpaque())
    else {
        retained.release()
        return nil
    }
    return native
}

/// Adds the header fields of `headers` that a handler may set (``handlerSetsField(_:)``) to a libmicrohttpd
/// response.
func addHeaders(_ headers: HTTPHeaders, to native: OpaquePointer) {
    for (name, value) in headers where handlerSetsField(name) {
        // withCString keeps short (inline) strings on the stack; the implicit conversion allocated for them.
        _ = name.withCString { name in value.withCString { MHD_add_response_header(native, name, $0) } }
    }
}

/// Whether a header field from a handler is sent as is: `Content-Length`, `Transfer-Encoding` and `Date` are the
/// transport's own.
func handlerSetsField(_ name: String) -> Bool {
    !(HTTPHeaders.equalNames(name, "Content-Length") || HTTPHeaders.equalNames(name, "Transfer-Encoding")
        || HTTPHeaders.equalNames(name, "Date"))
}

/// libmicrohttpd's free callback for a shared body: drops the reference the response held.
let releaseSharedBytes: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<SharedBytes>.fromOpaque(cls).release()
}
