/// A lazy query for elements, as `XCUIElementQuery`: nothing is resolved until it is used.
///
/// `query["login.submit"]` matches by identifier first and, when no identifier matches, by label.
/// `count`, `element`, `firstMatch` and `element(boundBy:)` resolve against the current screen each
/// time they are read or acted on.
public struct ElementQuery: Sendable, CustomStringConvertible {
    let app: SimulatedApp
    /// What the query asks for, for failure messages: `Button matching 'login.submit'`.
    public let description: String
    let evaluate: @Sendable (ElementNode) -> [ElementNode]

    /// How many elements match now.
    public var count: Int { app.withTree { evaluate($0).count } }

    /// The one element the query matches; acting on it fails when it matches none or several.
    public var element: SimulatedElement {
        SimulatedElement(app: app, description: description, locate: evaluate)
    }

    /// The first match, without the uniqueness requirement.
    public var firstMatch: SimulatedElement {
        let evaluate = self.evaluate
        return SimulatedElement(app: app, description: "first match of \(description)") {
            Array(evaluate($0).prefix(1))
        }
    }

    /// The match at `index` (0-based, in depth-first screen order).
    public func element(boundBy index: Int) -> SimulatedElement {
        let evaluate = self.evaluate
        return SimulatedElement(app: app, description: "\(description) at index \(index)") { root in
            let all = evaluate(root)
            return all.indices.contains(index) ? [all[index]] : []
        }
    }

    /// Every match now, each bound by its index.
    public var allElementsBoundByIndex: [SimulatedElement] {
        (0..<count).map { element(boundBy: $0) }
    }

    /// The element whose identifier is `key`, or when none has it, whose label is `key`.
    public subscript(key: String) -> SimulatedElement {
        let evaluate = self.evaluate
        return SimulatedElement(app: app, description: "\(description) matching '\(key)'") { root in
            let all = evaluate(root)
            let byIdentifier = all.filter { $0.identifier == key }
            return byIdentifier.isEmpty ? all.filter { $0.label == key } : byIdentifier
        }
    }

    /// The matches whose identifier is exactly `identifier`.
    public func matching(identifier: String) -> ElementQuery {
        let evaluate = self.evaluate
        return ElementQuery(app: app, description: "\(description) with identifier '\(identifier)'") { root in
            evaluate(root).filter { $0.identifier == identifier }
        }
    }

    /// The matches of `type` (or any type for `.any`) whose identifier is `identifier`.
    public func matching(_ type: ElementType, identifier: String) -> ElementQuery {
        let evaluate = self.evaluate
        return ElementQuery(
            app: app, description: "\(description) of type \(type.displayName) with identifier '\(identifier)'"
        ) {
            root in
            evaluate(root).filter { (type == .any || $0.elementType == type) && $0.identifier == identifier }
        }
    }

    /// The matches whose label contains `text`.
    public func containing(label text: String) -> ElementQuery {
        let evaluate = self.evaluate
        return ElementQuery(app: app, description: "\(description) with label containing '\(text)'") { root in
            evaluate(root).filter { $0.label.contains(text) }
        }
    }

    /// Descendants of every match, of `type`.
    public func descendants(matching type: ElementType) -> ElementQuery {
        let evaluate = self.evaluate
        return ElementQuery(app: app, description: "\(type.displayName) descendants of \(description)") { root in
            evaluate(root).flatMap { $0.descendants.filter { type == .any || $0.elementType == type } }
        }
    }

    /// Children of every match, of `type`.
    public func children(matching type: ElementType) -> ElementQuery {
        let evaluate = self.evaluate
        return ElementQuery(app: app, description: "\(type.displayName) children of \(description)") { root in
            evaluate(root).flatMap { $0.children.filter { type == .any || $0.elementType == type } }
        }
    }
}

/// Something that elements can be queried from: the app or an element.
public protocol ElementQuerying {
    /// Every descendant of `type` (`.any` for every type).
    func descendants(matching type: ElementType) -> ElementQuery
    /// Every direct child of `type`.
    func children(matching type: ElementType) -> ElementQuery
}

extension ElementQuerying {
    public var buttons: ElementQuery { descendants(matching: .button) }
    public var staticTexts: ElementQuery { descendants(matching: .staticText) }
    public var textFields: ElementQuery { descendants(matching: .textField) }
    public var secureTextFields: ElementQuery { descendants(matching: .secureTextField) }
    public var cells: ElementQuery { descendants(matching: .cell) }
    public var images: ElementQuery { descendants(matching: .image) }
    public var switches: ElementQuery { descendants(matching: .switch) }
    public var pickers: ElementQuery { descendants(matching: .picker) }
    public var pickerWheels: ElementQuery { descendants(matching: .pickerWheel) }
    public var tables: ElementQuery { descendants(matching: .table) }
    public var collectionViews: ElementQuery { descendants(matching: .collectionView) }
    public var scrollViews: ElementQuery { descendants(matching: .scrollView) }
    public var alerts: ElementQuery { descendants(matching: .alert) }
    public var navigationBars: ElementQuery { descendants(matching: .navigationBar) }
    public var activityIndicators: ElementQuery { descendants(matching: .activityIndicator) }
    public var otherElements: ElementQuery { descendants(matching: .other) }
}

extension SimulatedApp: ElementQuerying {
    public func descendants(matching type: ElementType) -> ElementQuery {
        ElementQuery(app: self, description: type.displayName) { root in
            root.descendants.filter { type == .any || $0.elementType == type }
        }
    }

    public func children(matching type: ElementType) -> ElementQuery {
        ElementQuery(app: self, description: "\(type.displayName) child of Application") { root in
            root.children.filter { type == .any || $0.elementType == type }
        }
    }
}

extension ElementQuery: ElementQuerying {}
