import FailscopeModel
import Foundation

/// Derives one run id for every process of one `swift test` invocation.
///
/// `swift test --parallel` starts one process per test; all are children of the same `swift test`
/// (or `swift-test`) process. The id hashes the parent's pid and its start time (field 22 of
/// `/proc/<ppid>/stat`, in clock ticks since boot) with the boot id, so siblings agree and a later
/// invocation differs. Without `/proc` it falls back to a random id (one run per process).
enum RunIdentity {
    static func derived(parentPID: Int32 = getppid()) -> String {
        guard let stat = try? String(contentsOfFile: "/proc/\(parentPID)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return "run-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20) }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Field 22 (starttime) is the 20th after the command name's closing parenthesis.
        let startTime = fields.count > 19 ? String(fields[19]) : ""
        let boot = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        let digest = SHA256.hex(of: Data("\(boot)|\(parentPID)|\(startTime)".utf8))
        return "run-" + digest.prefix(20)
    }
}
