/// Marks a test case class that runs only on phones; on a pad its tests are skipped with a reason
/// (seed 004's device protocols). `UITestCase` checks it before launching the app.
public protocol TestOnPhone {}

/// Marks a test case class that runs only on pads; on a phone its tests are skipped with a reason.
public protocol TestOnTablet {}
