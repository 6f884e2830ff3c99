import Foundation
import HTTPRouting
import HTTPServer

/// What the dashboard (`Web/`) needs from the service besides the API: its security headers and
/// Chart.js from the system's `libjs-chart.js` package.
///
/// The dashboard is plain HTML/CSS/JS modules that insert test-controlled text only as text; the
/// policy makes a slip harmless: scripts, styles, images and fetches come from this origin only, no
/// inline script or style element, no plugins, no framing, no form posts, no `<base>` rewriting.
public enum DashboardAssets {
    /// `Content-Security-Policy` of every dashboard file (CSP Level 3). `img-src` allows `data:` and
    /// `blob:` for images a page builds itself; everything else is `'self'` or `'none'`.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Header fields sent with every dashboard file.
    public static let headers: HTTPHeaders = [
        "Content-Security-Policy": contentSecurityPolicy, "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
    ]

    /// Where Debian's `libjs-chart.js` installs Chart.js.
    public static let chartJSDirectory = "/usr/share/javascript/chart.js"

    /// Chart.js bundles that define the global `Chart`, newest layout first: Chart.js 4 ships
    /// `chart.umd.js`, Chart.js 3 (Debian 12) `chart.min.js`.
    public static let chartJSCandidates = ["chart.umd.js", "chart.umd.min.js", "chart.min.js"]

    /// `GET /vendor/chart.js`: the first of ``chartJSCandidates`` found in `directory`, as JavaScript
    /// with an ETag; 404 `not_found` when the package is not installed (the dashboard then shows tables).
    public static func chartJS(directory: String = chartJSDirectory) -> Handler {
        { request in
            for name in chartJSCandidates {
                guard let file = try? OpenFile(path: directory + "/" + name) else { continue }
                return StaticFiles.fileResponse(
                    file, contentType: "text/javascript; charset=utf-8", etag: StaticFiles.etag(for: file),
                    cacheControl: "public, max-age=3600", request: request, extraHeaders: headers)
            }
            throw HTTPStatusError.notFound()
        }
    }
}
