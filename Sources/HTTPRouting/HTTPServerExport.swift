// Routes are written in the transport's words (`Request`, `Response`, `HTTPStatus`, `HTTPError`), so importing
// HTTPRouting brings them.
@_exported import HTTPServer
