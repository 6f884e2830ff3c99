import FailscopeModel
import FailscopeReporter
import Foundation
import SimulatedUI

/// The simulated screen's tree at one moment, encoded as the `ScreenSnapshot` JSON only when asked.
struct SimulatedElementTree: ElementTreeSnapshot {
    let snapshot: ScreenSnapshot

    func encodedTree() throws -> Data { try WireCoding.encoder().encode(snapshot) }
}
