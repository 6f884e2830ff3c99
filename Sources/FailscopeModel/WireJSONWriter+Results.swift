import Foundation

/// The result types in the wire format (keys sorted as `JSONEncoder` with `.sortedKeys` writes them).
extension WireJSONWriter {
    /// `batch` as `WireCoding.encoder().encode(batch)` would write it.
    public static func encode(_ batch: ResultBatch) -> Data {
        encodeBatch(ofEncoded: batch.results.map(encode))
    }

    /// A `ResultBatch` of results each already encoded by `encode(_: TestResult)` (the reporter
    /// encodes a result once, when its test ends, for its journal and its batch file).
    public static func encodeBatch(ofEncoded results: [Data]) -> Data {
        var json = WireJSONWriter(capacity: 16 + results.reduce(0) { $0 + $1.count + 1 })
        json.object { $0.field("results") { $0.array(results) { $0.encoded($1) } } }
        return json.data
    }

    /// `result` as `WireCoding.encoder().encode(result)` would write it.
    public static func encode(_ result: TestResult) -> Data {
        var json = WireJSONWriter(capacity: 512)
        json.write(result)
        return json.data
    }

    public mutating func write(_ result: TestResult) {
        object { keys in
            keys.string("arguments", result.arguments)
            keys.field("artifacts") { $0.array(result.artifacts) { $0.write($1) } }
            keys.integer("attempt", result.attempt)
            keys.string("device", result.device)
            keys.number("duration", result.duration)
            keys.field("failures") { $0.array(result.failures) { $0.write($1) } }
            keys.string("name", result.name)
            keys.string("skipReason", result.skipReason)
            keys.date("startedAt", result.startedAt)
            keys.string("status", result.status.rawValue)
            keys.string("suite", result.suite)
            keys.string("systemErr", result.systemErr)
            keys.string("systemOut", result.systemOut)
            keys.field("trail") { $0.array(result.trail) { $0.write($1) } }
        }
    }

    public mutating func write(_ failure: Failure) {
        object { keys in
            keys.string("action", failure.action)
            if let callSite = failure.callSite { keys.field("callSite") { $0.write(callSite) } }
            if let frame = failure.elementFrame { keys.field("elementFrame") { $0.write(frame) } }
            keys.bool("isError", failure.isError)
            if let location = failure.location { keys.field("location") { $0.write(location) } }
            keys.string("message", failure.message)
            keys.string("page", failure.page)
        }
    }

    public mutating func write(_ step: TrailStep) {
        object { keys in
            keys.string("action", step.action)
            if let callSite = step.callSite { keys.field("callSite") { $0.write(callSite) } }
            if let duration = step.duration { keys.number("duration", duration) }
            keys.string("elementTree", step.elementTree)
            keys.string("page", step.page)
            if let target = step.target { keys.field("target") { $0.write(target) } }
        }
    }

    public mutating func write(_ artifact: ArtifactRef) {
        object { keys in
            keys.integer("byteCount", artifact.byteCount)
            keys.integer("height", artifact.height)
            keys.string("kind", artifact.kind.rawValue)
            keys.string("sha256", artifact.sha256)
            keys.integer("width", artifact.width)
        }
    }

    public mutating func write(_ frame: Frame) {
        object { keys in
            keys.number("height", frame.height)
            keys.number("width", frame.width)
            keys.number("x", frame.x)
            keys.number("y", frame.y)
        }
    }

    public mutating func write(_ location: SourceLocation) {
        object { keys in
            keys.string("file", location.file)
            keys.integer("line", location.line)
        }
    }
}
