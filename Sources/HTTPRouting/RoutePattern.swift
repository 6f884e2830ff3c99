/// A compiled route path pattern such as `/api/v1/runs/{runId}`, `/artifacts/{sha256}.png` or `/static/{path...}`.
///
/// Grammar: the pattern starts with `/`; segments are separated by `/`. A segment is a literal, or a parameter
/// `{name}` with an optional literal prefix and suffix inside the segment (`{sha256}.png`), or, as the last
/// segment only, `{name...}`, which matches the rest of the path (zero or more segments).
/// Invalid patterns are programmer errors and trap.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(name: String, prefix: String, suffix: String)
        case rest(name: String)
    }

    let text: String
    let segments: [Segment]

    var description: String { text }

    init(_ text: String) {
        precondition(text.hasPrefix("/"), "A route pattern starts with '/': \(text)")
        self.text = text
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        for (index, part) in parts.enumerated() {
            guard let open = part.firstIndex(of: "{") else {
                precondition(!part.contains("}"), "Unbalanced '}' in route pattern: \(text)")
                segments.append(.literal(String(part)))
                continue
            }
            guard let close = part.firstIndex(of: "}"), close > open else {
                preconditionFailure("Unbalanced '{' in route pattern: \(text)")
            }
            let name = part[part.index(after: open)..<close]
            let prefix = String(part[..<open])
            let suffix = String(part[part.index(after: close)...])
            precondition(!suffix.contains("{"), "One parameter per segment in route pattern: \(text)")
            if name.hasSuffix("...") {
                precondition(
                    index == parts.count - 1 && prefix.isEmpty && suffix.isEmpty,
                    "A '{name...}' parameter must be the whole last segment: \(text)")
                segments.append(.rest(name: String(name.dropLast(3))))
            } else {
                precondition(!name.isEmpty, "Empty parameter name in route pattern: \(text)")
                segments.append(.parameter(name: String(name), prefix: prefix, suffix: suffix))
            }
        }
        self.segments = segments
    }

    /// Whether the last segment is a `{name...}` rest parameter.
    var hasRest: Bool {
        if case .rest = segments.last { return true }
        return false
    }

    /// Matches the request path's segments: raw (percent-encoded) and decoded, index by index.
    /// Returns the parameters, or `nil` if the path does not match. Checks the segment count and every literal
    /// before building anything, so trying a route that does not match costs no allocation.
    func match(raw: [Substring], decoded: [Substring]) -> [String: String]? {
        let rest = hasRest
        if rest ? decoded.count < segments.count - 1 : decoded.count != segments.count { return nil }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                break
            case .literal(let literal):
                guard decoded[index] == literal else { return nil }
            case .parameter(_, let prefix, let suffix):
                let value = decoded[index].utf8
                guard value.count > prefix.utf8.count + suffix.utf8.count, value.starts(with: prefix.utf8),
                    value.reversed().starts(with: suffix.utf8.reversed())
                else { return nil }
            }
        }
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest(let name):
                parameters[name] = index < raw.count ? raw[index...].joined(separator: "/") : ""
            case .literal:
                continue
            case .parameter(let name, let prefix, let suffix):
                let value = decoded[index].utf8
                let start = value.index(value.startIndex, offsetBy: prefix.utf8.count)
                let end = value.index(value.endIndex, offsetBy: -suffix.utf8.count)
                parameters[name] = String(decoded[index][start..<end])
            }
        }
        return parameters
    }
}
