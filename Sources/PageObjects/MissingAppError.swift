/// Thrown by `UITestCase.makeApp(on:)` when a subclass does not override it: the test fails with
/// this description instead of the process stopping.
public struct MissingAppError: Error, CustomStringConvertible {
    /// The `UITestCase` subclass that lacks the override.
    public var testCaseType: String

    public var description: String {
        "\(testCaseType) must override makeApp(on:) to create its app, e.g. "
            + "override func makeApp(on device: Device) -> SimulatedApp { SimulatedApp(MyApp.self, device: device) }"
    }
}
