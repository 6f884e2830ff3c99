import Foundation

/// A finished child process's exit status and output.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
}

/// Runs `executable` with `arguments` to its end, with `environment` (this process's when `nil`), and
/// returns its exit status and output. Both pipes are read to their end concurrently, so neither of the
/// child's writes blocks.
public func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws
    -> ProcessOutput
{
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let errorData = DataBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errorData.data = error.fileHandleForReading.readDataToEndOfFile() }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.data, as: UTF8.self))
}

private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// The package's built products beside the running test binary (`.build/<triple>/debug`).
public enum BuildProducts {
    /// The folder of the test binary.
    public static var directory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }
    /// The running test binary.
    public static var testBinary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath() }
    /// The `failscope` CLI (`swift build --build-tests` builds it there).
    public static var failscope: URL { directory.appendingPathComponent("failscope") }
}
