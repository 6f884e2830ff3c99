/// The `failscope` command: its subcommands and the overview that lists them.
enum Failscope {
    /// Every subcommand, in the order `failscope --help` lists them.
    static let commands: [any Command.Type] = [
        ServeCommand.self,
        MigrateCommand.self,
        GCCommand.self,
        CopyCommand.self,
        RunsCommand.self,
        TestCommand.self,
        UploadCommand.self,
        ImportCommand.self,
        ExportCommand.self,
        SummaryCommand.self,
        FlakyCommand.self,
        QuarantineCommand.self,
        SlowestCommand.self,
        VersionCommand.self,
    ]

    /// `failscope --help`.
    static var overview: String {
        """
        OVERVIEW: Failscope — UI test results, failure screenshots and flaky tests by page.

        USAGE: failscope <subcommand> [options]

        SUBCOMMANDS:
        \(commands.map { "  " + $0.name.padding(toLength: 12, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

          See 'failscope help <subcommand>' for detailed help.
        """
    }
}
