/// One step of a test's page trail: a page entered or a page method called, and from where.
///
/// `page` is the page object's type name (`LoginPage`), `action` its method (`tapLogin()`,
/// `nil` when the step is entering the page), `callSite` the test's file:line that made the call.
///
/// The action trace (written only for a failing test, docs/trace.md): `elementTree` is the SHA-256 of
/// the `element_tree` artifact holding the screen's element tree when the step ran (the failing step's is
/// the tree captured at the failure; identical trees are one artifact), `target` the frame (points) of the
/// element the action targeted, `duration` the seconds from this step to the next (to the failure or the
/// test's end for the last). All three are absent for a passing test and for producers without a trace.
public struct TrailStep: Codable, Sendable, Hashable {
    public var page: String
    public var action: String?
    public var callSite: SourceLocation?
    public var elementTree: String?
    public var target: Frame?
    public var duration: Double?

    public init(
        page: String, action: String? = nil, callSite: SourceLocation? = nil, elementTree: String? = nil,
        target: Frame? = nil, duration: Double? = nil
    ) {
        self.page = page
        self.action = action
        self.callSite = callSite
        self.elementTree = elementTree
        self.target = target
        self.duration = duration
    }
}
