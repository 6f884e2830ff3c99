/// The PostgreSQL engine's SQL, carried in the binary (SwiftPM `.embedInCode`, so no file is needed beside it).
public enum PostgresMigrations {
    /// The migrations `(name, SQL text)`, in order. A new one is a new `NNNN_name.sql` file here, listed in
    /// Package.swift's resources of this target and appended to this list.
    public static let migrations: [(name: String, sql: String)] = [
        ("0001_baseline", text(PackageResources._001_baseline_sql)),
        ("0002_quarantine", text(PackageResources._002_quarantine_sql)),
        ("0003_trail_step_trace", text(PackageResources._003_trail_step_trace_sql)),
        ("0004_webhooks", text(PackageResources._004_webhooks_sql)),
        ("0005_failure_signatures", text(PackageResources._005_failure_signatures_sql)),
        ("0006_passed_durations", text(PackageResources._006_passed_durations_sql)),
        ("0007_webhook_filters", text(PackageResources._007_webhook_filters_sql)),
        ("0008_results_by_commit", text(PackageResources._008_results_by_commit_sql)),
        ("0009_results_by_commit_test", text(PackageResources._009_results_by_commit_test_sql)),
    ]

    /// `flaky_scope.sql`: the temporary tables `flaky_summaries.sql` reads, created once per connection.
    public static let flakyScope = text(PackageResources.flaky_scope_sql)

    /// `flaky_summaries.sql`: the statements that add the results of the scope to every flaky summary table,
    /// separated by `;` at a line's end.
    public static let flakySummaries = text(PackageResources.flaky_summaries_sql)

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
