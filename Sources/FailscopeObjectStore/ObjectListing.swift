import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One page of a `ListObjectsV2` answer (`GET /BUCKET?list-type=2`; Amazon S3 API Reference, "ListObjectsV2"):
/// each `Contents` entry's `Key`, `Size` and `LastModified` (ISO 8601), and the continuation token when
/// `IsTruncated` is true.
struct ObjectListing {
    struct Entry {
        var key: String
        var size: Int
        var lastModified: Date
    }
    var entries: [Entry] = []
    var nextContinuationToken: String?

    /// Parses the XML body; `nil` when it is not a listing.
    init?(xml: [UInt8]) {
        let reader = Reader()
        let parser = XMLParser(data: Data(xml))
        parser.delegate = reader
        guard parser.parse(), reader.sawRoot else { return nil }
        entries = reader.entries
        nextContinuationToken = reader.truncated ? reader.continuation : nil
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var entries: [Entry] = []
        var truncated = false
        var continuation: String?
        var sawRoot = false
        private var text = ""
        private var current: (key: String, size: Int, modified: Date?)?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            text = ""
            if name == "ListBucketResult" { sawRoot = true }
            if name == "Contents" { current = ("", 0, nil) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "Key": current?.key = text
            case "Size": current?.size = Int(text) ?? 0
            case "LastModified": current?.modified = ObjectListing.date(text)
            case "Contents":
                if let entry = current {
                    entries.append(Entry(key: entry.key, size: entry.size, lastModified: entry.modified ?? Date()))
                }
                current = nil
            case "IsTruncated": truncated = text == "true"
            case "NextContinuationToken": continuation = text
            default: break
            }
        }
    }

    /// An S3 timestamp (`2026-12-01T17:02:42Z` or with fractional seconds).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
