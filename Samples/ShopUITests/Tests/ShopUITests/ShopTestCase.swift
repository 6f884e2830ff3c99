import PageObjects
import ShopApp
import SimulatedUI

/// The base of the shop's UI tests: a fresh `ShopApp` for every test, on the device that
/// `FAILSCOPE_DEVICE` names. `UITestCase` launches it, reports failures at the test's line and
/// registers the screen capture; `makeApp(on:)` is the one method a subclass must provide.
class ShopTestCase: UITestCase {
    override func makeApp(on device: Device) -> SimulatedApp {
        SimulatedApp(ShopApp.self, device: device)
    }
}
