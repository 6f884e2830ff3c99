import DemoAccessibility
import SimulatedUI

extension DemoApp {
    /// An item's title, price, a quantity picker (1 through its stock) and Add to Cart.
    func itemScreen(_ product: Product) -> AppScreen {
        let quantities = (1...product.stock).map(String.init)
        return AppScreen(
            navigationBar: NavigationBar(
                title: product.name, backButton: BarButton(previousTitle, identifier: ID.Item.back) { [self] in pop() }),
            content: [
                .image(product.name),
                .text(product.name, id: ID.Item.title, style: .title),
                .text(product.formattedPrice, id: ID.Item.price, style: .headline),
                .text("Quantity", style: .secondary),
                .picker(
                    id: ID.Item.quantity,
                    wheels: [
                        PickerWheel(identifier: ID.Item.quantityWheel, values: quantities, selectedIndex: quantityIndex)
                        {
                            [self] in quantityIndex = $0
                        }
                    ]),
                .button("Add to Cart", id: ID.Item.addToCart) { [self] in
                    let quantity = faults.cartQuantityBug ? 1 : quantityIndex + 1
                    cartConfirmation = "\(quantity) × \(product.name)"
                },
            ],
            alert: cartConfirmation.map { confirmation in
                Alert(
                    identifier: ID.Item.cartAlert, title: "Added to Cart", message: confirmation,
                    buttons: [
                        BarButton("OK", identifier: ID.Item.cartAlertOK, style: .plain) { [self] in
                            cartConfirmation = nil
                        }
                    ])
            })
    }
}
