import FailscopeModel
import Foundation
import XCTest

/// The XCTest observer: records every test case of the bundle through a `RunRecorder`.
///
/// Callbacks used (swift-corelibs-xctest and Apple's XCTest alike): `testCaseWillStart`,
/// `testCase(_:didFailWithDescription:inFile:atLine:)` (a thrown error arrives as file `<EXPR>`,
/// line 0: recorded as an error), `testCaseDidFinish` (`hasBeenSkipped`, `unexpectedExceptionCount`,
/// `failureCount`, `testDuration`; the skip's reason from the test case, see `skipReason(of:)`) and
/// `testBundleDidFinish`, which blocks until the upload is done (work not awaited there never
/// arrives) and writes the summary line to stderr.
public final class FailscopeObserver: NSObject, XCTestObservation, @unchecked Sendable {
    public let recorder: RunRecorder
    private let lock = NSLock()
    private var current: RunRecorder.ActiveTest?
    private var suiteNames: [ObjectIdentifier: String] = [:]

    public init(recorder: RunRecorder) {
        self.recorder = recorder
    }

    public func testCaseWillStart(_ testCase: XCTestCase) {
        let (suite, name) = names(of: testCase)
        let test = recorder.testWillStart(suite: suite, name: name)
        lock.withLock { current = test }
    }

    public func testCase(
        _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        guard let test = lock.withLock({ current }) else { return }
        let thrown = filePath == "<EXPR>" && lineNumber == 0
        // swift-corelibs-xctest prefixes XCTFail's message with "failed - ".
        let message = description.hasPrefix("failed - ") ? String(description.dropFirst(9)) : description
        recorder.recordFailure(
            in: test, message: message, file: thrown ? nil : filePath, line: thrown ? nil : lineNumber,
            isError: thrown)
    }

    public func testCaseDidFinish(_ testCase: XCTestCase) {
        guard let test = lock.withLock({ current }) else { return }
        lock.withLock { current = nil }
        let run = testCase.testRun
        // Failures come before the skip: swift-corelibs-xctest also marks a test skipped when its
        // setUp throws (it skips the test body), though the test failed.
        let status: TestStatus
        if (run?.unexpectedExceptionCount ?? 0) > 0 || test.failures.contains(where: \.isError) {
            status = .error
        } else if (run?.failureCount ?? 0) > 0 || !test.failures.isEmpty {
            status = .failed
        } else if run?.hasBeenSkipped == true {
            status = .skipped
        } else {
            status = .passed
        }
        recorder.testDidFinish(
            test, status: status, duration: run?.testDuration,
            skipReason: status == .skipped ? Self.skipReason(of: testCase) : nil)
    }

    /// Why `testCase` was skipped: the message of the `XCTSkip` it threw (`XCTSkip("needs a pad")` →
    /// `needs a pad`), else XCTest's summary of the skip (`Test skipped: required true value of type
    /// Bool but got false`); `nil` when unknown.
    ///
    /// swift-corelibs-xctest keeps the thrown `XCTSkip` in the test case's `skip` property and gives
    /// observers only `hasBeenSkipped`; the property is read by reflection (it is not public), and
    /// XCTest versions without it give `nil`.
    static func skipReason(of testCase: XCTestCase) -> String? {
        var mirror: Mirror? = Mirror(reflecting: testCase)
        while let current = mirror {
            if let stored = current.children.first(where: { $0.label == "skip" })?.value {
                guard let skip = stored as? XCTSkip else { return nil }
                if let message = skip.message, !message.isEmpty { return message }
                return Mirror(reflecting: skip).children.first { $0.label == "summary" }?.value as? String
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    public func testBundleDidFinish(_ testBundle: Bundle) {
        if let line = recorder.finish() {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    }

    /// The suite and test names, the suite's cached per class (`String(describing:)` of a type is
    /// among the observer's costliest calls per test).
    private func names(of testCase: XCTestCase) -> (suite: String, name: String) {
        let type = ObjectIdentifier(Swift.type(of: testCase))
        let suite = lock.withLock {
            if let known = suiteNames[type] { return known }
            let name = String(describing: Swift.type(of: testCase))
            suiteNames[type] = name
            return name
        }
        return Self.names(of: testCase, suite: suite)
    }

    /// `LoginTests.testWrongPassword` → (`LoginTests`, `testWrongPassword`); Apple's
    /// `-[LoginTests testWrongPassword]` too.
    static func names(of testCase: XCTestCase, suite: String) -> (suite: String, name: String) {
        var name = testCase.name
        if name.hasPrefix("-[") && name.hasSuffix("]") {
            name = String(name.dropFirst(2).dropLast())
            if let space = name.firstIndex(of: " ") { name = String(name[name.index(after: space)...]) }
        } else if name.hasPrefix(suite + ".") {
            name = String(name.dropFirst(suite.count + 1))
        }
        return (suite, name)
    }
}
