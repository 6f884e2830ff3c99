/// A command's help and usage line, generated from its declarations in swift-argument-parser's layout:
///
///     OVERVIEW: <summary>
///
///     <discussion>
///
///     USAGE: failscope gc --keep-days <n> [--data <dir>] [--database <db>]
///
///     ARGUMENTS:
///       <file> ...              <help>
///
///     OPTIONS:
///       --keep-days <n>         <help> (default: …; env …)
///       -h, --help              Show help information.
///
/// Lines are wrapped at `width` columns; an option's help starts in column `helpColumn` (on the next
/// line when its name is longer).
enum CommandHelp {
    static let width = 100
    static let helpColumn = 26

    /// The whole help of `command`.
    static func help(for command: any Command.Type) -> String {
        var sections = ["OVERVIEW: \(command.summary)"]
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        sections.append("USAGE: " + usage(of: command))
        if let positional = command.positional {
            sections.append("ARGUMENTS:\n" + entry(placeholder(positional), positional.help))
        }
        let options = command.options.map { entry(spelling($0), describe($0)) }
        sections.append(
            "OPTIONS:\n" + (options + [entry("-h, --help", "Show help information.")]).joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }

    /// The usage line of `command` (wrapped, its continuation lines aligned after the command's name).
    static func usage(of command: any Command.Type) -> String {
        var parts = command.options.map { option in
            let words =
                "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
                + (option.isRepeatable ? " ..." : "")
            return option.isRequired ? words : "[\(words)]"
        }
        if let positional = command.positional { parts.append(placeholder(positional)) }
        let head = "failscope \(command.name)"
        let column = "USAGE: ".count + head.count + 1
        return parts.isEmpty ? head : head + " " + wrap(parts, start: column, indent: column)
    }

    /// The usage error's lines: `Usage: …` and where the full help is.
    static func usageReminder(for command: any Command.Type) -> String {
        "Usage: \(usage(of: command))\n  See 'failscope help \(command.name)' for more information."
    }

    private static func placeholder(_ positional: PositionalArgument) -> String {
        switch positional.kind {
        case .words: "<\(positional.valueName)> ..."
        case .afterSeparator: "-- <\(positional.valueName)> ..."
        }
    }

    private static func spelling(_ option: any OptionDeclaration) -> String {
        ([option.name] + option.aliases).map { "--" + $0 }.joined(separator: ", ")
            + (option.valueName.map { " <\($0)>" } ?? "")
    }

    /// The help sentence and, in parentheses, the default and the environment variable.
    private static func describe(_ option: any OptionDeclaration) -> String {
        var notes: [String] = []
        if let value = option.defaultDescription { notes.append("default: \(value)") }
        if let variable = option.environment {
            notes.append("env \(variable)" + (option.isRepeatable ? ", comma-separated" : ""))
        }
        return option.help + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    /// `  <name>   <help wrapped from helpColumn>`.
    private static func entry(_ name: String, _ help: String) -> String {
        let words = help.split(separator: " ").map(String.init)
        let label = "  " + name
        let text = wrap(words, start: helpColumn, indent: helpColumn)
        if label.count < helpColumn - 1 {
            return label + String(repeating: " ", count: helpColumn - label.count) + text
        }
        return label + "\n" + String(repeating: " ", count: helpColumn) + text
    }

    /// `words` joined by spaces from column `start`; a word that would pass `width` begins a new line
    /// at column `indent`.
    private static func wrap(_ words: [String], start: Int, indent: Int) -> String {
        var text = ""
        var column = start
        for word in words {
            if !text.isEmpty {
                if column + 1 + word.count > width {
                    text += "\n" + String(repeating: " ", count: indent)
                    column = indent
                } else {
                    text += " "
                    column += 1
                }
            }
            text += word
            column += word.count
        }
        return text
    }
}
