import FailscopeModel
import Foundation

/// Where a JUnit result ran, from suite- or case-level `<property>` elements: the device (or destination),
/// its OS, the test-plan configuration and a device identifier.
///
/// Property names are matched without case, `_`, `-`, `.` or spaces, so that `device_name` (Codemagic,
/// Bitrise), `deviceName`, `Device Name` and `device` are one key. Recognised: device `device`,
/// `devicename`, `destination`, `destinationname`, `rundestination`, `simulator`, `simulatorname`; OS
/// `deviceoperatingsystem`, `deviceos`, `deviceosversion`, `operatingsystem`, `os`, `osversion`,
/// `platformversion`, `runtime`; configuration `configuration`, `configurationname`, `testplanconfiguration`,
/// `testplanconfigurationname`, `testconfiguration`; identifier `deviceidentifier`, `deviceid`, `deviceudid`,
/// `udid`, `devicemodel`, `model`.
struct Destination: Hashable, Sendable {
    var name: String?
    var os: String?
    var configuration: String?
    var identifier: String?

    var isEmpty: Bool { name == nil && os == nil && configuration == nil && identifier == nil }

    /// Takes `value` when `property` names a part of a destination; other properties are ignored.
    mutating func set(property: String, value: String) {
        let value = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return }
        let key = String(
            property.lowercased().unicodeScalars.filter { $0 != "_" && ReportIdentity.isIdentifierScalar($0) })
        switch key {
        case "device", "devicename", "destination", "destinationname", "rundestination", "simulator",
            "simulatorname":
            name = value
        case "deviceoperatingsystem", "deviceos", "deviceosversion", "operatingsystem", "os", "osversion",
            "platformversion", "runtime":
            os = value
        case "configuration", "configurationname", "testplanconfiguration", "testplanconfigurationname",
            "testconfiguration":
            configuration = value
        case "deviceidentifier", "deviceid", "deviceudid", "udid", "devicemodel", "model":
            identifier = value
        default:
            break
        }
    }

    /// Fills the parts this destination does not name from `outer` (an enclosing suite's).
    mutating func fill(from outer: Destination) {
        name = name ?? outer.name
        os = os ?? outer.os
        configuration = configuration ?? outer.configuration
        identifier = identifier ?? outer.identifier
    }

    /// `iPhone 15 (17.5)`, `iPhone 15 (17.5) · Dark Mode` with the configuration when `withConfiguration`;
    /// the identifier stands in for a missing name; `nil` when nothing names the destination.
    func device(withConfiguration: Bool) -> String? {
        var text = name ?? identifier
        if let os, !(text?.contains(os) ?? false) { text = text.map { "\($0) (\(os))" } ?? os }
        if withConfiguration, let configuration { text = text.map { "\($0) · \(configuration)" } ?? configuration }
        return text
    }
}

/// Decides which results of a JUnit report are attempts of one test and which are distinct executions.
///
/// Rules, in order, for a `<testcase>` whose suite, name, arguments and destination repeat an earlier one:
/// 1. A `repetition` property (fastlane's `Retry 1`, `Retry 2`) says it: the n-th element with a label is
///    an attempt of the n-th execution; the same label twice means two executions.
/// 2. A function that takes parameters (`canEdit(role:isOwner:)`) without an `argument` property: another
///    parameterized case, never a retry.
/// 3. After a failed or errored execution in the same `<testsuite>` element, when the name is an
///    identifier or a function without parameters (which cannot be a parameterized case): a retry.
/// 4. Otherwise (after a passing execution, in another suite element, or a display name that could be
///    another case or configuration): a distinct execution, with a warning. Except that a display name
///    repeated after a failure in the same suite element is a retry when that suite's `tests` count holds
///    only with it folded.
/// Distinct executions of one identity are numbered in order in their arguments: `#1`, `#2`, or
/// `"a" #1`, `"a" #2` after an argument text. Destinations include the configuration only when the report
/// has more than one. The importer records each result as it reads (`append`, and `fill` when a suite's
/// properties are known), then `decide` runs once over the whole file.
struct JUnitExecutions {
    /// What the decision needs of one result; results of one `<testcase>` share `element`. Small (the
    /// destination is an index into a table of the few a report names), as a report may hold 10^5 results.
    struct Element: Sendable {
        var element: Int32
        var place: Int32
        var destination: Int32
        var hasArguments: Bool
        var repetition: String?
    }

    private(set) var elements: [Element] = []
    /// One more than the highest place recorded.
    private var places = 1
    /// Suite elements' `tests` attributes, by place.
    private var testsClaimed: [Int32: Int] = [:]
    private var destinations: [Destination] = [Destination()]
    private var destinationIndex: [Destination: Int32] = [Destination(): 0]

    var count: Int { elements.count }

    /// Records `count` results (the attempts of one `<testcase>` element).
    mutating func append(
        element: Int, place: Int, repetition: String?, hasArguments: Bool, destination: Destination, count: Int
    ) {
        places = max(places, place + 1)
        let entry = Element(
            element: Int32(truncatingIfNeeded: element), place: Int32(truncatingIfNeeded: place),
            destination: intern(destination), hasArguments: hasArguments, repetition: repetition)
        elements.append(contentsOf: repeatElement(entry, count: count))
    }

    /// The `tests` attribute of the suite element numbered `place`.
    mutating func claim(tests: Int, place: Int) { testsClaimed[Int32(truncatingIfNeeded: place)] = tests }

    /// An enclosing suite's destination fills what the results from `start` on do not name.
    mutating func fill(from outer: Destination, startingAt start: Int) {
        var merged: [Int32: Int32] = [:]
        for index in start..<elements.count {
            let own = elements[index].destination
            if let known = merged[own] {
                elements[index].destination = known
                continue
            }
            var destination = destinations[Int(own)]
            destination.fill(from: outer)
            let filled = intern(destination)
            merged[own] = filled
            elements[index].destination = filled
        }
    }

    private mutating func intern(_ destination: Destination) -> Int32 {
        if destination.isEmpty { return 0 }
        if let index = destinationIndex[destination] { return index }
        let index = Int32(destinations.count)
        destinations.append(destination)
        destinationIndex[destination] = index
        return index
    }

    /// What is known of one identity so far: its latest execution, and per repetition label how many
    /// elements carried it.
    private struct State {
        var latest: Int32 = 1
        var attempts: Int32 = 0
        var failed = false
        var place: Int32
        var instances: Int32 = 1
        var labels: [String: Int32] = [:]
        /// Attempts per execution, kept only for labelled elements (a label may return to an older one).
        var labelledAttempts: [Int32] = []
    }

    /// What one reading of the elements decided, per result and in total.
    private struct Outcome {
        var stateOf: [Int32]
        var instanceOf: [Int32]
        var instances: [Int32] = []
        var afterPass = 0
        var cannotTell = 0
        var parameterized = 0
        var foldedByCount = 0
        var examples: [String: String] = [:]
        /// Per suite element (by place): executions, and those kept apart because the report could not tell.
        var executions: [Int]
        var undecided: [Int32: Int] = [:]

        init(count: Int, places: Int) {
            stateOf = [Int32](repeating: 0, count: count)
            instanceOf = [Int32](repeating: 1, count: count)
            executions = [Int](repeating: 0, count: places)
        }
    }

    /// Sets each result's device, attempt and (for distinct executions of one identity) numbered arguments;
    /// returns the warnings to show.
    ///
    /// Where the report cannot tell a retry from another case (rule 4 after a failure), a suite's `tests`
    /// count can: when it equals that suite's executions only with those elements folded, they are retries.
    func decide(_ results: inout [TestResult]) -> [String] {
        precondition(results.count == elements.count)
        let withConfiguration = Set(destinations.compactMap(\.configuration)).count > 1
        let devices = destinations.map { $0.device(withConfiguration: withConfiguration) }
        for index in results.indices { results[index].device = devices[Int(elements[index].destination)] }
        var outcome = read(&results, foldingIn: [])
        let counted = Set(
            outcome.undecided.compactMap { place, undecided in
                testsClaimed[place] == outcome.executions[Int(place)] - undecided ? place : nil
            })
        if !counted.isEmpty { outcome = read(&results, foldingIn: counted) }
        for index in results.indices where outcome.instances[Int(outcome.stateOf[index])] > 1 {
            results[index].arguments =
                (results[index].arguments.map { $0 + " " } ?? "") + "#\(outcome.instanceOf[index])"
        }
        var warnings: [String] = []
        /// Says how many <testcase> elements repeated a test and what they were read as (with the first example).
        func say(_ kind: String, _ count: Int, _ reading: (String) -> String) {
            guard count > 0, let example = outcome.examples[kind] else { return }
            warnings.append("\(count) <testcase> element\(count == 1 ? " repeats" : "s repeat") " + reading(example))
        }
        say("parameterized", outcome.parameterized) {
            "a parameterized test without its arguments; kept as its cases #1, #2, … in order (first: \($0))"
        }
        say("afterPass", outcome.afterPass) {
            "a test after it passed: kept as distinct executions #1, #2, … (another case or configuration the report does not name; first: \($0))"
        }
        say("cannotTell", outcome.cannotTell) {
            "a failed test where the report cannot tell a retry from another case or place: kept as distinct executions #1, #2, … (first: \($0))"
        }
        say("foldedByCount", outcome.foldedByCount) {
            "a failed test under a name that could be another case; read as a retry because the suite's tests count says so (first: \($0))"
        }
        return warnings
    }

    /// One reading of the elements in file order (rules 1–4); `foldingIn` lists the suite elements whose
    /// undecided repeats are retries.
    private func read(_ results: inout [TestResult], foldingIn: Set<Int32>) -> Outcome {
        var outcome = Outcome(count: results.count, places: places)
        var stateIndex: [ImportedTest.Identity: Int32] = [:]
        stateIndex.reserveCapacity(results.count)
        var states: [State] = []
        var start = 0
        while start < results.count {
            var end = start + 1
            while end < results.count, elements[end].element == elements[start].element { end += 1 }
            let key = ImportedTest.Identity(results[start])
            let element = elements[start]
            let id: Int32
            var state: State
            let instance: Int32
            var attempts: Int32
            if let known = stateIndex[key] {
                id = known
                state = states[Int(known)]
                if let label = element.repetition {
                    instance = (state.labels[label] ?? 0) + 1
                    state.labels[label] = instance
                    attempts = instance <= state.labelledAttempts.count ? state.labelledAttempts[Int(instance) - 1] : 0
                } else if ReportIdentity.isParameterized(key.name), !element.hasArguments {
                    outcome.parameterized += 1
                    outcome.examples["parameterized"] = outcome.examples["parameterized"] ?? Self.describe(key)
                    instance = state.instances + 1
                    attempts = 0
                } else if state.failed, state.place == element.place, Self.cannotBeAnotherCase(key.name) {
                    instance = state.latest
                    attempts = state.attempts
                } else if state.failed, state.place == element.place, foldingIn.contains(element.place) {
                    outcome.foldedByCount += 1
                    outcome.examples["foldedByCount"] = outcome.examples["foldedByCount"] ?? Self.describe(key)
                    instance = state.latest
                    attempts = state.attempts
                } else {
                    if state.failed {
                        outcome.cannotTell += 1
                        outcome.examples["cannotTell"] = outcome.examples["cannotTell"] ?? Self.describe(key)
                        if state.place == element.place { outcome.undecided[element.place, default: 0] += 1 }
                    } else {
                        outcome.afterPass += 1
                        outcome.examples["afterPass"] = outcome.examples["afterPass"] ?? Self.describe(key)
                    }
                    instance = state.instances + 1
                    attempts = 0
                }
            } else {
                id = Int32(states.count)
                stateIndex[key] = id
                state = State(place: element.place)
                if let label = element.repetition { state.labels[label] = 1 }
                instance = 1
                attempts = 0
            }
            if attempts == 0 { outcome.executions[Int(element.place)] += 1 }
            for index in start..<end {
                attempts += 1
                results[index].attempt = Int(attempts)
                outcome.stateOf[index] = id
                outcome.instanceOf[index] = instance
            }
            state.instances = max(state.instances, instance)
            state.latest = instance
            state.attempts = attempts
            state.failed = results[end - 1].status.outcome == .fail
            state.place = element.place
            if element.repetition != nil {
                while state.labelledAttempts.count < Int(instance) { state.labelledAttempts.append(0) }
                state.labelledAttempts[Int(instance) - 1] = attempts
            }
            if Int(id) == states.count { states.append(state) } else { states[Int(id)] = state }
            start = end
        }
        outcome.instances = states.map(\.instances)
        return outcome
    }

    /// A name that cannot be one of several cases: an identifier (`testApply`, `test_foo`), a function
    /// without parameters (`apply()`), or an identifier carrying its case's id (pytest's `test_sum[1-2]`).
    /// Display names (`Apply coupon`) can.
    static func cannotBeAnotherCase(_ name: String) -> Bool {
        var base = name.hasSuffix("()") ? name.dropLast(2) : Substring(name)
        if base.hasSuffix("]"), let open = base.firstIndex(of: "["), open > base.startIndex {
            base = base[..<open]
        }
        return !base.isEmpty
            && base.unicodeScalars.allSatisfy { $0 == "$" || ReportIdentity.isIdentifierScalar($0) }
    }

    private static func describe(_ key: ImportedTest.Identity) -> String {
        "\(key.suite)/\(key.name)" + (key.device.map { " on \($0)" } ?? "")
    }
}
