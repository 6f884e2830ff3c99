/// A page-object action of a project's page trails (`TrailStep` with an `action`): the page object's type
/// name and its method, `CatalogPage` and `search(_:)`, written `CatalogPage.search(_:)` (`name`).
///
/// Actions are named by text, not by an id: the same page and method in two projects are two actions only
/// because durations are always read per project.
public struct PageAction: Codable, Sendable, Hashable, Comparable {
    public var page: String
    public var action: String

    public init(page: String, action: String) {
        self.page = page
        self.action = action
    }

    /// `page.action`, as the page objects are called in a test: `CatalogPage.search(_:)`.
    public var name: String { "\(page).\(action)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.page, lhs.action) < (rhs.page, rhs.action) }
}

extension PageAction: DurationSubject {
    public static var subjectKey: String { "action" }
    public static var countKey: String { "steps" }
}
