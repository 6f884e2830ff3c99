import FailscopeReporter
import FailscopeSimulatedScreen
import SimulatedUI
import Testing
import XCTest

/// Where page objects and the simulated screen report a failure: at the test's line, to the test
/// library running the test (`XCTFail` under XCTest, `Issue.record` under Swift Testing).
///
/// XCUITest tests set `continueAfterFailure = false`, which stops a test at its first failure.
/// swift-corelibs-xctest ignores that flag, so the base page emulates it: after the first failure
/// in a test, later page actions do nothing and later failures are not recorded.
public enum TestFailure {
    /// Records `message` as a test failure blamed on `file:line`, unless the test already failed.
    public static func record(_ message: String, file: StaticString, line: UInt, trail: PageTrail = .shared) {
        guard !trail.markFailed() else { return }
        if Test.current != nil {
            let path = "\(file)"
            let components = path.split(separator: "/")
            let module = components.count > 1 ? components[components.count - 2] : "Tests"
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(module)/\(components.last ?? "Test.swift")", filePath: path, line: Int(line), column: 1))
        } else {
            XCTFail(message, file: file, line: line)
        }
    }

    /// The simulated screen's failure handler that reports through `record`.
    public static let handler: SimulatedApp.FailureHandler = { message, file, line in
        record(message, file: file, line: line)
    }
}

extension SimulatedApp {
    /// Prepares a test: forgets the previous test's page trail, routes the screen's failures to the
    /// running test library, registers the simulated screen's capture on this app's device with the
    /// Failscope reporter, and launches the app. `UITestCase` does this for XCTest; a Swift Testing
    /// suite calls it at the start of each test.
    public func launchForTesting(trail: PageTrail = .shared) {
        trail.reset()
        failureHandler = TestFailure.handler
        FailscopeReporter.useScreenCapture(SimulatedScreenCapture(device: device))
        launch()
    }
}
