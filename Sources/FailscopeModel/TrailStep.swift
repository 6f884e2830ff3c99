/// One step of a test's page trail: a page entered or a page method called, and from where.
///
/// `page` is the page object's type name (`LoginPage`), `action` its method (`tapLogin()`,
/// `nil` when the step is entering the page), `callSite` the test's file:line that made the call.
public struct TrailStep: Codable, Sendable, Hashable {
    public var page: String
    public var action: String?
    public var callSite: SourceLocation?

    public init(page: String, action: String? = nil, callSite: SourceLocation? = nil) {
        self.page = page
        self.action = action
        self.callSite = callSite
    }
}
