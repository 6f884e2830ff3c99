import FailscopeStore
import Foundation

/// A mistake in the command line: printed as `Error: …` with the usage, exit code 64.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A failure while running a command (I/O, the network, bad input): printed as `Error: …`, exit 1, or
/// 69 (`EX_UNAVAILABLE`, sysexits.h) when the database cannot be reached.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32 = 1
    init(_ description: String) { self.description = description }

    /// `error` of the store, said after `context`; exit 69 when it is `StoreError.unavailable`.
    init(store error: any Error, _ context: String = "") {
        description = context + "\(error)"
        if case .unavailable? = error as? StoreError { exitCode = 69 }
        if error is ArtifactStorageError { exitCode = 69 }
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
