import DemoAccessibility
import SimulatedUI

extension DemoApp {
    /// A search field over a grid of the catalog's items (loaded from the network).
    func catalogScreen() -> AppScreen {
        var content: [View] = [
            .textField(id: ID.Catalog.search, text: searchText, placeholder: "Search") { [self] in searchText = $0 }
        ]
        if let products {
            let query = searchText.lowercased()
            let matches = query.isEmpty ? products : products.filter { $0.name.lowercased().contains(query) }
            if matches.isEmpty {
                content.append(.text("No items match \"\(searchText)\".", id: ID.Catalog.empty, style: .secondary))
            } else {
                content.append(
                    .collection(
                        id: ID.Catalog.grid,
                        cells: matches.map { product in
                            Cell(
                                identifier: ID.Catalog.item(product.number), title: product.name,
                                subtitle: product.formattedPrice, showsImage: true
                            ) { [self] in
                                quantityIndex = 0
                                push(.item(product.number))
                            }
                        }))
            }
        } else {
            content.append(.activityIndicator(id: ID.Catalog.loading, label: "Loading items"))
        }
        return AppScreen(
            navigationBar: NavigationBar(
                title: ID.Catalog.screen,
                backButton: BarButton(previousTitle) { [self] in pop() },
                trailingButtons: [
                    BarButton("Settings", identifier: ID.Catalog.settings) { [self] in
                        push(.settings)
                        loadAccentColours()
                    }
                ]),
            content: content)
    }
}
