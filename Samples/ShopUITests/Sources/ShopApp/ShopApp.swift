import SimulatedUI

/// A small shop for the simulated screen: a list of products, and a product's page with its price
/// and an Add to Basket button. Adding takes a moment of network time.
///
/// It has one bug on purpose, for the failing test to find: adding the mug adds two.
public final class ShopApp: AppProgram {
    /// The products for sale, in list order.
    public static let products = [
        (name: "Coffee Beans", price: "$12.50"),
        (name: "Green Tea", price: "$8.00"),
        (name: "Mug", price: "$9.99"),
    ]

    private let context: AppContext
    private var openProduct: Int?
    private var basketCount = 0
    private var isAdding = false

    public required init(context: AppContext) {
        self.context = context
    }

    public func body() -> AppScreen {
        if let openProduct { return productScreen(openProduct) }
        return productsScreen()
    }

    private var basketText: String { basketCount == 1 ? "Basket: 1 item" : "Basket: \(basketCount) items" }

    private func productsScreen() -> AppScreen {
        let cells = Self.products.enumerated().map { index, product in
            Cell(identifier: "product.\(index)", title: product.name, subtitle: product.price) { [self] in
                openProduct = index
                context.after(0.35) {}  // the navigation animation
            }
        }
        return AppScreen(
            navigationBar: NavigationBar(title: ShopID.Products.screen),
            content: [
                .text(basketText, id: ShopID.Products.basket, style: .secondary),
                .table(id: ShopID.Products.list, cells: cells),
            ])
    }

    private func productScreen(_ index: Int) -> AppScreen {
        let product = Self.products[index]
        return AppScreen(
            navigationBar: NavigationBar(
                title: product.name,
                backButton: BarButton(ShopID.Products.screen) { [self] in
                    openProduct = nil
                    context.after(0.35) {}
                }),
            content: [
                .text(product.name, id: ShopID.Product.name, style: .largeTitle),
                .text(product.price, id: ShopID.Product.price),
                .button("Add to Basket", id: ShopID.Product.add, isEnabled: !isAdding) { [self] in
                    isAdding = true
                    context.after(0.5, kind: .background) { [self] in
                        isAdding = false
                        basketCount += product.name == "Mug" ? 2 : 1  // the bug
                    }
                },
                .text(basketText, id: ShopID.Product.basket, style: .secondary),
            ])
    }
}
