import FailscopeModel
import Foundation
import Testing

/// The Swift Testing trait that records tests and issues as the XCTest observer does:
/// `@Suite(.failscope, .serialized) struct LoginTests { … }` (or on single `@Test`s).
///
/// It runs each test (each case of a parameterized test) inside an `IssueHandlingTrait` that sees
/// `#expect`, `#require` and `Issue.record`, and catches the errors a test throws (which only reach
/// the trait's scope). The run is uploaded when the process exits, after any XCTest bundle's own
/// upload. UI suites drive one simulated screen: mark them `.serialized`.
public struct FailscopeTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public init() {}

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard let recorder = FailscopeReporter.recorder, let testCase, !test.isSuite else {
            return try await function()
        }
        FailscopeReporter.finishAtExit()
        let active = recorder.testWillStart(
            suite: Self.suiteName(of: test), name: test.name, arguments: Self.argumentText(of: testCase))
        let issues = IssueHandlingTrait.compactMapIssues { issue in
            if issue.isFailure {
                let location = issue.sourceLocation
                recorder.recordFailure(
                    in: active, message: Self.message(of: issue), file: location?.filePath, line: location?.line,
                    isError: issue.error != nil)
            }
            return issue
        }
        let started = Date()
        do {
            try await issues.provideScope(for: test, testCase: testCase, performing: function)
        } catch let stop as ExpectationFailedError {
            // A failed `#require`: its issue (with the expectation's location) is recorded already, and
            // the error only stops the test, as Swift Testing itself treats it.
            let status: TestStatus = recorder.failures(of: active).contains(where: \.isError) ? .error : .failed
            recorder.testDidFinish(active, status: status, duration: Date().timeIntervalSince(started))
            throw stop
        } catch {
            // Swift Testing reports a thrown error at the test's declaration; so does the trait.
            recorder.recordFailure(
                in: active, message: "Caught error: \(error)", file: test.sourceLocation.filePath,
                line: test.sourceLocation.line, isError: true)
            recorder.testDidFinish(active, status: .error, duration: Date().timeIntervalSince(started))
            throw error
        }
        let failures = recorder.failures(of: active)
        let status: TestStatus = failures.contains(where: \.isError) ? .error : failures.isEmpty ? .passed : .failed
        recorder.testDidFinish(active, status: status, duration: Date().timeIntervalSince(started))
    }

    /// `Module.LoginTests/login()/File.swift:3:4` → `LoginTests`; a free function's suite is its module.
    static func suiteName(of test: Test) -> String {
        let parts = "\(test.id)".split(separator: "/").map(String.init).filter { !$0.contains(".swift:") }
        let path = parts.dropLast()
        guard let first = path.first ?? parts.first else { return test.name }
        if path.isEmpty { return String(first.split(separator: ".").first ?? Substring(first)) }
        let withoutModule = first.split(separator: ".", maxSplits: 1).last.map(String.init) ?? first
        return ([withoutModule] + path.dropFirst()).joined(separator: ".")
    }

    /// A parameterized case's arguments as `name: "Blue", count: 2`, read by reflection (Swift Testing
    /// has no public accessor); `nil` for a plain test or when the shape is not understood.
    static func argumentText(of testCase: Test.Case) -> String? {
        guard testCase.isParameterized else { return nil }
        func child(_ value: Any, _ label: String) -> Any? {
            Mirror(reflecting: value).children.first { $0.label == label }?.value
        }
        guard let kind = child(testCase, "_kind"), let parameterized = Mirror(reflecting: kind).children.first?.value,
            let arguments = child(parameterized, "arguments") as? [Any]
        else { return nil }
        let parts = arguments.compactMap { argument -> String? in
            guard let value = child(argument, "value") else { return nil }
            let name = child(argument, "parameter").flatMap { child($0, "firstName") as? String }
            let text = value is String ? "\"\(value)\"" : String(describing: value)
            return name.map { "\($0): \(text)" } ?? text
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The issue's kind and its comments once: `Expectation failed: (sum → 2) == 3: arithmetic is
    /// broken`; an `Issue.record("…")` gives its comment alone. (`Issue.description` already holds the
    /// comments, plus the severity.)
    static func message(of issue: Issue) -> String {
        let comments = issue.comments.map(\.rawValue).joined(separator: "\n")
        if case .unconditional = issue.kind, !comments.isEmpty { return comments }
        return comments.isEmpty ? "\(issue.kind)" : "\(issue.kind): \(comments)"
    }
}

extension Trait where Self == FailscopeTrait {
    /// Records the suite's or test's results in Failscope.
    public static var failscope: Self { FailscopeTrait() }
}
