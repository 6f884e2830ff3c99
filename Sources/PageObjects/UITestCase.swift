import FailscopeReporter
import Foundation
import SimulatedUI
import XCTest

/// The base of a UI test case class: chooses the device, skips phone-only or tablet-only classes
/// on the wrong idiom, launches a fresh app for each test, routes the simulated screen's failures to
/// `XCTFail` at the test's line, and registers the simulated screen's capture with the Failscope
/// reporter (a failing test's screen as PNG; the device becomes the run's).
///
/// Subclasses must override `makeApp(on:)` to create and configure their app (launch arguments and
/// environment); the base launches it. The device comes from `FAILSCOPE_DEVICE` (default iPhone 15);
/// an unknown name fails the test with the list of known devices.
open class UITestCase: XCTestCase {
    /// The app under test, launched before each test and terminated after it.
    public var app: SimulatedApp!
    /// The simulated device of this run.
    public private(set) var device: Device = .iPhone15

    /// Creates the app to test on `device`, configured but not launched. Subclasses override it (a
    /// non-throwing override is fine).
    /// - Throws: `MissingAppError` unless overridden: each test of the class fails with that message.
    open func makeApp(on device: Device) throws -> SimulatedApp {
        throw MissingAppError(testCaseType: String(describing: type(of: self)))
    }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        continueAfterFailure = false
        PageTrail.shared.reset()
        do {
            device = try Device.fromEnvironment()
        } catch {
            XCTFail("\(error)")
            throw error
        }
        if self is TestOnPhone && device.idiom != .phone {
            try skip("Phone-only test: the current device is \(device.name) (\(device.idiom.rawValue))")
        }
        if self is TestOnTablet && device.idiom != .pad {
            try skip("Tablet-only test: the current device is \(device.name) (\(device.idiom.rawValue))")
        }
        app = try makeApp(on: device)
        app.launchForTesting()
    }

    /// Skips the test with `reason` (the reporter records it as the skip's reason).
    public func skip(_ reason: String) throws {
        throw XCTSkip(reason)
    }

    open override func tearDown() {
        app?.terminate()
        app = nil
        super.tearDown()
    }
}
