import Foundation
import XCTest

/// Not a test of its own: the process `ParallelRunTests` starts to see a failure reach the service
/// while the run goes on. It fails one test, then holds the next until the file named by
/// `FAILSCOPE_LIVE_FIXTURE_GATE` exists (30 s at most); without that variable both are skipped.
final class LiveFixtureTests: XCTestCase {
    static let gateVariable = "FAILSCOPE_LIVE_FIXTURE_GATE"

    private var gate: String?

    override func setUpWithError() throws {
        gate = ProcessInfo.processInfo.environment[Self.gateVariable]
        try XCTSkipIf(gate == nil, "a fixture: runs only in the live-upload test of ParallelRunTests")
    }

    func testAFailsEarly() {
        XCTFail("the first failure of a run still going on")
    }

    func testBWaitsUntilTheTestHasSeenTheFailure() throws {
        let path = try XCTUnwrap(gate)
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the gate opened")
    }
}
