/// Every accessibility identifier of the shop: the app sets them, the page objects query them.
public enum ShopID {
    public enum Products {
        public static let screen = "Products"
        public static let list = "products.list"
        public static let basket = "products.basket"
    }

    public enum Product {
        public static let name = "product.name"
        public static let price = "product.price"
        public static let add = "product.add"
        public static let basket = "product.basket"
    }
}
