/// One screen of an app, as its body describes it: a navigation bar, content laid out top to
/// bottom, and an optional alert over everything.
///
/// Layout (points): the navigation bar (44 pt) sits under the status bar (the device's top safe
/// area); content starts 16 pt below it with 16 pt margins (20 pt on iPad) and 12 pt spacing. A
/// table or collection view takes the height left above the bottom safe area and scrolls; other
/// content that does not fit is wrapped in a scroll view.
public struct AppScreen {
    public var navigationBar: NavigationBar?
    public var content: [View]
    public var alert: Alert?

    public init(navigationBar: NavigationBar? = nil, content: [View], alert: Alert? = nil) {
        self.navigationBar = navigationBar
        self.content = content
        self.alert = alert
    }
}

/// A navigation bar: its title (also its identifier, as on iOS), a back button and trailing buttons.
public struct NavigationBar {
    public var title: String
    public var identifier: String
    public var backButton: BarButton?
    public var trailingButtons: [BarButton]

    public init(
        title: String, identifier: String? = nil, backButton: BarButton? = nil, trailingButtons: [BarButton] = []
    ) {
        self.title = title
        self.identifier = identifier ?? title
        self.backButton = backButton
        self.trailingButtons = trailingButtons
    }
}

/// A button in a navigation bar or an alert.
public struct BarButton {
    public var label: String
    public var identifier: String
    public var style: ElementStyle
    public var action: () -> Void

    public init(_ label: String, identifier: String = "", style: ElementStyle = .plain, action: @escaping () -> Void) {
        self.label = label
        self.identifier = identifier
        self.style = style
        self.action = action
    }
}

/// An alert: title, message and buttons, centred over a dimmed screen; while it shows, nothing
/// beneath it is hittable.
public struct Alert {
    public var identifier: String
    public var title: String
    public var message: String
    public var buttons: [BarButton]

    public init(identifier: String = "", title: String, message: String = "", buttons: [BarButton]) {
        self.identifier = identifier
        self.title = title
        self.message = message
        self.buttons = buttons
    }
}

/// One row of a table or one item of a collection view.
public struct Cell {
    public var identifier: String
    public var title: String
    public var subtitle: String?
    public var showsImage: Bool
    public var action: (() -> Void)?

    public init(
        identifier: String, title: String, subtitle: String? = nil, showsImage: Bool = false,
        action: (() -> Void)? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.showsImage = showsImage
        self.action = action
    }
}

/// One wheel of a picker: its values, the selected index and what selecting another does.
public struct PickerWheel {
    public var identifier: String
    public var values: [String]
    public var selectedIndex: Int
    public var onSelect: (Int) -> Void

    public init(identifier: String, values: [String], selectedIndex: Int, onSelect: @escaping (Int) -> Void) {
        self.identifier = identifier
        self.values = values
        self.selectedIndex = selectedIndex
        self.onSelect = onSelect
    }
}
