/// One item of the sample catalog, generated from its number so the catalog is the same every run.
public struct Product: Sendable, Equatable {
    public let number: Int
    public let name: String
    /// Price in cents.
    public let priceCents: Int
    /// How many are in stock: the item page's quantity picker offers 1 through this.
    public let stock: Int

    static let kinds = [
        "Desk Lamp", "Armchair", "Bookshelf", "Coffee Table", "Rug", "Mirror", "Vase", "Plant Pot", "Wall Clock",
        "Cushion", "Side Table", "Floor Lamp",
    ]
    static let finishes = ["Oak", "Walnut", "White", "Black", "Brass"]

    /// The 60 products of the catalog, numbered from 1.
    public static let catalog: [Product] = (1...60).map { Product(number: $0) }

    init(number: Int) {
        self.number = number
        let index = number - 1
        name =
            "\(Self.kinds[index % Self.kinds.count]) \(Self.finishes[index / Self.kinds.count % Self.finishes.count])"
        priceCents = 1_999 + (index * 737) % 20_000
        stock = 3 + (index * 7) % 9
    }

    /// The price as the app shows it: `$19.99`.
    public var formattedPrice: String {
        "$\(priceCents / 100).\(String(format: "%02d", priceCents % 100))"
    }
}
