/// Every accessibility identifier of the sample app: the single source of truth that both the app
/// (which sets them) and its UI tests' page objects (which query them) depend on.
///
/// One nested namespace per screen. Renaming a constant is one edit the compiler carries to the
/// producer and the consumers.
public enum ID {
    public enum Login {
        public static let screen = "Log In"
        public static let email = "login.email"
        public static let password = "login.password"
        public static let submit = "login.submit"
        public static let error = "login.error"
        public static let progress = "login.progress"
    }

    public enum Message {
        public static let screen = "Welcome"
        public static let text = "message.text"
        public static let browseCatalog = "message.browseCatalog"
        public static let logOut = "message.logOut"
    }

    public enum Catalog {
        public static let screen = "Catalog"
        public static let search = "catalog.search"
        public static let grid = "catalog.grid"
        public static let loading = "catalog.loading"
        public static let empty = "catalog.empty"
        public static let settings = "catalog.settings"

        /// The identifier of the catalog item with `number` (1-based, stable across searches).
        public static func item(_ number: Int) -> String { "catalog.item.\(number)" }
    }

    public enum Item {
        public static let title = "item.title"
        public static let price = "item.price"
        public static let quantity = "item.quantity"
        public static let quantityWheel = "item.quantity.wheel"
        public static let addToCart = "item.addToCart"
        public static let cartAlert = "item.cartAlert"
        public static let cartAlertOK = "item.cartAlert.ok"
        public static let back = "item.back"
    }

    public enum Settings {
        public static let screen = "Settings"
        public static let notifications = "settings.notifications"
        public static let wifiOnly = "settings.wifiOnly"
        public static let accentPicker = "settings.accent"
        public static let accentWheel = "settings.accent.wheel"
        public static let accentSummary = "settings.accent.summary"
        public static let loading = "settings.loading"
        public static let back = "settings.back"
    }
}
