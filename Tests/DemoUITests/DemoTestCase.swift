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
        app.launchArguments = launchArguments
        app.launchEnvironment = DemoLaunch.environment(test: name)
        return app
    }
}

/// The sample app's launch environment for one test: the demo's faults pass from the test process
/// (`DEMO_FAULTS`), and the seed is `DEMO_SEED` plus the test's name.
enum DemoLaunch {
    static func environment(test: String) -> [String: String] {
        let process = ProcessInfo.processInfo.environment
        var environment = [DemoFaults.seedKey: (process[DemoFaults.seedKey] ?? "") + "|" + test]
        if let faults = process[DemoFaults.faultsKey] { environment[DemoFaults.faultsKey] = faults }
        return environment
    }
}

/// Test data: the account that logs in and items of the sample catalog.
enum TestData {
    static let email = "ada@example.com"
    static let password = "swordfish"
    static let wrongPassword = "password"
    static let item50 = (number: 50, title: "Armchair Brass", price: "$181.12")
}
