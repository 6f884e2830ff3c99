/// `failscope version`: prints the version.
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version of failscope."
    static let options: [any OptionDeclaration] = []
    static let version = "0.1.0"

    static func run(_ arguments: Arguments) async throws -> Int32 {
        print("failscope \(version)")
        return 0
    }
}
