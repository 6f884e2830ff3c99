/// `failscope version`: prints the version.
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version of failscope."
    static let usage = "USAGE: failscope version"
    static let version = "0.1.0"

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        try arguments.checkAllConsumed()
        print("failscope \(version)")
        return 0
    }
}
