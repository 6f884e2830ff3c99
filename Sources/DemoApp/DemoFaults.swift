import Foundation

/// The faults a demonstration can switch on, only through the launch environment. Without them
/// the sample app is correct.
///
/// - `DEMO_FAULTS`: comma-separated fault names:
///   - `slow-network`: each network delay is drawn from a seeded generator and, one time in eight,
///     takes 5.5–8 s instead of 0.3–1.2 s: longer than the page objects' 5 s waits (a flaky test).
///   - `cart-quantity-bug`: the add-to-cart confirmation always says one item (a broken test).
/// - `DEMO_SEED`: any text; the same seed gives the same delays.
public struct DemoFaults: Sendable, Equatable {
    public static let faultsKey = "DEMO_FAULTS"
    public static let seedKey = "DEMO_SEED"
    public static let slowNetwork = "slow-network"
    public static let cartQuantityBug = "cart-quantity-bug"

    public var slowNetwork: Bool
    public var cartQuantityBug: Bool

    public init(environment: [String: String]) {
        let names = Set(
            (environment[Self.faultsKey] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        slowNetwork = names.contains(Self.slowNetwork)
        cartQuantityBug = names.contains(Self.cartQuantityBug)
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014), seeded from text with 64-bit FNV-1a: small, fast and the
/// same on every platform, so a seed replays the same delays.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed text: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
