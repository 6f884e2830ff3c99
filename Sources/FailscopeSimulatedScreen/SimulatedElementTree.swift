import FailscopeModel
import FailscopeReporter
import Foundation
import SimulatedUI

/// The simulated screen's tree at one moment: a handle on the app's element tree (one reference), made into a
/// `ScreenSnapshot` and encoded as its JSON only when asked.
struct SimulatedElementTree: ElementTreeSnapshot {
    let screen: ScreenSnapshotHandle

    func encodedTree() throws -> Data { try WireCoding.encoder().encode(screen.snapshot) }
}
