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
        let key = String(property.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
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
///    another case or configuration): a distinct execution, with a warning.
/// Distinct executions of one identity are numbered in order in their arguments: `#1`, `#2`, or
/// `"a" #1`, `"a" #2` after an argument text. Destinations include the configuration only when the report
/// has more than one.
enum JUnitExecutions {
    /// What one result needs for the decision; results of one `<testcase>` share `element`.
    struct Element: Sendable {
        var element: Int
        var place: Int
        var repetition: String?
        var hasArguments: Bool
        var destination: Destination
    }

    private struct Chain {
        var instance: Int
        var attempts = 0
        var failed = false
        var place: Int
    }

    private struct LabelKey: Hashable {
        var test: ImportedTest.Identity
        var label: String
    }

    /// Sets each result's device, attempt and (for distinct executions of one identity) numbered arguments;
    /// returns the warnings to show.
    static func decide(_ results: inout [TestResult], _ elements: [Element]) -> [String] {
        precondition(results.count == elements.count)
        let configurations = Set(elements.compactMap(\.destination.configuration))
        for index in results.indices {
            results[index].device = elements[index].destination.device(withConfiguration: configurations.count > 1)
        }
        var latest: [ImportedTest.Identity: Chain] = [:]
        var chains: [ImportedTest.Identity: [Int: Chain]] = [:]
        var labelCounts: [LabelKey: Int] = [:]
        var instanceCounts: [ImportedTest.Identity: Int] = [:]
        var instances = [Int](repeating: 1, count: results.count)
        var afterPass = 0
        var cannotTell = 0
        var parameterized = 0
        var firstExample: [String: String] = [:]
        var start = 0
        while start < results.count {
            var end = start + 1
            while end < results.count, elements[end].element == elements[start].element { end += 1 }
            let key = ImportedTest.Identity(results[start])
            let element = elements[start]
            let instance: Int
            if let label = element.repetition {
                let labelKey = LabelKey(test: key, label: label)
                instance = (labelCounts[labelKey] ?? 0) + 1
                labelCounts[labelKey] = instance
            } else if let previous = latest[key] {
                if ReportIdentity.isParameterized(key.name), !element.hasArguments {
                    parameterized += 1
                    firstExample["parameterized"] = firstExample["parameterized"] ?? describe(key)
                    instance = (instanceCounts[key] ?? 1) + 1
                } else if previous.failed, previous.place == element.place, cannotBeAnotherCase(key.name) {
                    instance = previous.instance
                } else {
                    if previous.failed {
                        cannotTell += 1
                        firstExample["cannotTell"] = firstExample["cannotTell"] ?? describe(key)
                    } else {
                        afterPass += 1
                        firstExample["afterPass"] = firstExample["afterPass"] ?? describe(key)
                    }
                    instance = (instanceCounts[key] ?? 1) + 1
                }
            } else {
                instance = 1
            }
            instanceCounts[key] = max(instanceCounts[key] ?? 0, instance)
            var chain = chains[key]?[instance] ?? Chain(instance: instance, place: element.place)
            for index in start..<end {
                chain.attempts += 1
                results[index].attempt = chain.attempts
                instances[index] = instance
            }
            chain.failed = results[end - 1].status.outcome == .fail
            chains[key, default: [:]][instance] = chain
            latest[key] = chain
            start = end
        }
        for index in results.indices {
            let key = ImportedTest.Identity(results[index])
            guard let count = instanceCounts[key], count > 1 else { continue }
            results[index].arguments = (results[index].arguments.map { $0 + " " } ?? "") + "#\(instances[index])"
        }
        var warnings: [String] = []
        if parameterized > 0, let example = firstExample["parameterized"] {
            warnings.append(
                "\(parameterized) <testcase> element\(parameterized == 1 ? " repeats" : "s repeat") a parameterized test without its arguments; kept as its cases #1, #2, … in order (first: \(example))"
            )
        }
        if afterPass > 0, let example = firstExample["afterPass"] {
            warnings.append(
                "\(afterPass) <testcase> element\(afterPass == 1 ? " repeats" : "s repeat") a test after it passed: kept as distinct executions #1, #2, … (another case or configuration the report does not name; first: \(example))"
            )
        }
        if cannotTell > 0, let example = firstExample["cannotTell"] {
            warnings.append(
                "\(cannotTell) <testcase> element\(cannotTell == 1 ? " repeats" : "s repeat") a failed test where the report cannot tell a retry from another case or place: kept as distinct executions #1, #2, … (first: \(example))"
            )
        }
        return warnings
    }

    /// A name that cannot be one of several cases: an identifier (`testApply`, `test_foo`) or a function
    /// without parameters (`apply()`). Display names (`Apply coupon`) can.
    static func cannotBeAnotherCase(_ name: String) -> Bool {
        let base = name.hasSuffix("()") ? name.dropLast(2) : Substring(name)
        return !base.isEmpty
            && base.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || CharacterSet.alphanumerics.contains($0) }
    }

    private static func describe(_ key: ImportedTest.Identity) -> String {
        "\(key.suite)/\(key.name)" + (key.device.map { " on \($0)" } ?? "")
    }
}
