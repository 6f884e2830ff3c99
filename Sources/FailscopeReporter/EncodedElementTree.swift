import Foundation

/// A tree already encoded: the one captured with a failure's screenshot, which becomes the failing step's.
struct EncodedElementTree: ElementTreeSnapshot {
    let data: Data

    func encodedTree() throws -> Data { data }
}
