/// A reference to a stored artifact, named by the SHA-256 of its bytes (lowercase hex, 64 characters).
public struct ArtifactRef: Codable, Sendable, Hashable {
    /// What the bytes are.
    public enum Kind: String, Codable, Sendable, Hashable {
        /// The screen at the first failure, PNG (RGB, device pixels).
        case screenshot
        /// The element tree at the first failure, JSON (`ScreenSnapshot` encoding).
        case elementTree = "element_tree"

        /// The HTTP media type of this kind's bytes.
        public var mediaType: String {
            switch self {
            case .screenshot: "image/png"
            case .elementTree: "application/json"
            }
        }
    }

    public var sha256: String
    public var kind: Kind
    /// Size of the artifact in bytes.
    public var byteCount: Int
    /// Pixel width and height, for screenshots.
    public var width: Int?
    public var height: Int?

    public init(sha256: String, kind: Kind, byteCount: Int, width: Int? = nil, height: Int? = nil) {
        self.sha256 = sha256
        self.kind = kind
        self.byteCount = byteCount
        self.width = width
        self.height = height
    }
}
