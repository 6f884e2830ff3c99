/// What one failure most likely is (docs/flaky.md, "A verdict per failure"), checked in this order:
/// - `likelyFlaky`: the test has failed with this failure's signature on a commit where it also passed
///   (a retry that passed, or another run of the same commit): the same-input contradiction that alone
///   makes a test flaky, with this very error;
/// - `regression`: the test's last attempt passed in the base run (the newest finished run of the base
///   branch, `RunComparison.defaultBase`);
/// - `new`: no result of another run on the run's branch, earlier than this one, failed with this signature;
/// - `known`: none of these: the error was seen before and the base does not show the test passing.
public enum FailureVerdict: String, Codable, Sendable, Hashable, CaseIterable {
    case likelyFlaky = "likely_flaky"
    case regression
    case new
    case known
}
