/// One recorded failure (or issue) of a test result.
///
/// `location` is the failure location as XCTest (or the report) gives it; `page`, `action` and
/// `callSite` come from the page trail at the moment of the failure; `elementFrame` is the frame
/// (points, screen coordinates) of the element the failing action targeted, when there is one.
public struct Failure: Codable, Sendable, Hashable {
    public var message: String
    public var location: SourceLocation?
    public var page: String?
    public var action: String?
    public var callSite: SourceLocation?
    public var elementFrame: Frame?
    /// `true` for an error (a thrown error, an unexpected exception), `false` for an assertion failure.
    public var isError: Bool

    public init(
        message: String,
        location: SourceLocation? = nil,
        page: String? = nil,
        action: String? = nil,
        callSite: SourceLocation? = nil,
        elementFrame: Frame? = nil,
        isError: Bool = false
    ) {
        self.message = message
        self.location = location
        self.page = page
        self.action = action
        self.callSite = callSite
        self.elementFrame = elementFrame
        self.isError = isError
    }
}
