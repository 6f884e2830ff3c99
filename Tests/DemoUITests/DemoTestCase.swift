import DemoApp
import Foundation
import PageObjects
import SimulatedUI

/// The base of the sample app's UI test cases: a fresh `DemoApp` for every test.
///
/// The demo's faults pass from the test process's environment to the app's launch environment
/// (`DEMO_FAULTS`); the app's random seed is `DEMO_SEED` plus the test's name, so each test draws
/// its own delays and the same seed replays the same run.
class DemoTestCase: UITestCase {
    /// Launch arguments of the app; catalog tests start logged in.
    var launchArguments: [String] { [] }

    override func makeApp(on device: Device) -> SimulatedApp {
        let app = SimulatedApp(DemoApp.self, device: device)
        let environment = ProcessInfo.processInfo.environment
        app.launchArguments = launchArguments
        if let faults = environment[DemoFaults.faultsKey] {
            app.launchEnvironment[DemoFaults.faultsKey] = faults
        }
        app.launchEnvironment[DemoFaults.seedKey] = (environment[DemoFaults.seedKey] ?? "") + "|" + name
        return app
    }
}

/// Test data: the account that logs in and items of the sample catalog.
enum TestData {
    static let email = "ada@example.com"
    static let password = "swordfish"
    static let wrongPassword = "password"
    static let item50 = (number: 50, title: "Armchair Brass", price: "$181.12")
}
