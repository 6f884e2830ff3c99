import FailscopeClient
import FailscopeModel
import Foundation

/// `failscope quarantine add|list|edit|remove`: the service's quarantine (README.md "Quarantine") from a terminal or
/// a CI step, and its exports for runners that skip tests (`QuarantineExport`).
enum QuarantineCommand: Command {
    static let name = "quarantine"
    static let summary = "Quarantine tests: add, list (or export as skips), edit, remove."
    static let discussion = """
        Actions and what each needs:
          add     --project --suite --name [--arguments --page --device] --owner --reason --expires
          list    [--project] [--all] [--format] [--target]
          edit    --id --why [--owner --reason --expires]
          remove  (--id | --project --suite --name [--arguments --page --device]) --reason
        A quarantined test's failures are recorded and shown apart; `failscope test --quarantine obey`
        does not fail the step for them. The swift-test and xcodebuild formats print shell-quoted words
        on one line: eval "swift test $(failscope quarantine list --format swift-test)". An entry
        narrowed to arguments, a page or a device skips its whole test there.
        Exit status: 0 done, 1 refused by the service.
        """
    static let positional: PositionalArgument? = PositionalArgument(
        kind: .words, valueName: "action", help: "add, list, edit or remove.")

    static let url = SharedOptions.url.required()
    static let token = SharedOptions.uploadToken.help(
        "An upload token or the admin token; list needs it only when the service has a read token.")
    static let project = Option<String>("project", value: "p", help: "The test's project, as its results name it.")
    static let suite = Option<String>("suite", value: "s", help: "The test's suite.")
    static let testName = Option<String>("name", value: "n", help: "The test's name.")
    static let testArguments = Option<String>(
        "arguments", value: "a", help: "Narrow the quarantine to these arguments.")
    static let page = Option<String>("page", value: "p", help: "Narrow the quarantine to this page.")
    static let device = Option<String>("device", value: "d", help: "Narrow the quarantine to this device.")
    static let owner = Option<String>("owner", value: "o", help: "Who looks after the test.")
    static let reason = Option<String>(
        "reason", value: "r", help: "Why it is quarantined (add, edit), or why it is lifted (remove).")
    static let expires = Option<String>(
        "expires", value: "YYYY-MM-DD", help: "The last day it applies (UTC), today or later, within a year.")
    static let id = Option<Int>.integer("id", value: "n", in: 1...Int.max, help: "The entry (as list shows it).")
    static let why = Option<String>("why", value: "w", help: "Why the entry changes (edit).")
    static let actor = Option<String>(
        "actor", value: "name", help: "Who makes the change, for the audit log.",
        defaultHelp: "env GITHUB_ACTOR, else USER; without any, the service records the owner for add, "
            + "nobody otherwise")
    static let all = Option<Bool>.flag("all", help: "List expired and lifted entries too.")
    static let format = Option<String>.choice(
        "format", value: "format", Format.allCases.map(\.rawValue),
        help: "text, json (QuarantineList), swift-test (`--skip` arguments) or xcodebuild (`-skip-testing:` "
            + "arguments, needs --target).", default: Format.text.rawValue)
    static let target = Option<String>(
        "target", value: "bundle", help: "The test bundle of the xcodebuild format's identifiers.")
    static let options: [any OptionDeclaration] = [
        url, token, project, suite, testName, testArguments, page, device, owner, reason, expires, id, why, actor,
        all, format, target,
    ]

    enum Action: String, CaseIterable {
        case add, list, edit, remove
    }

    enum Format: String, CaseIterable {
        case text, json
        case swiftTest = "swift-test"
        case xcodebuild
    }

    /// Every option of every action, read and checked in one place.
    struct Options {
        var action: Action
        var url: URL
        var token: String?
        var project: String?
        var suite: String?
        var name: String?
        var arguments: String?
        var page: String?
        var device: String?
        var owner: String?
        var reason: String?
        var expires: String?
        var id: Int?
        var why: String?
        var actor: String?
        var all = false
        var format = Format.text
        var target: String?

        static func parse(_ arguments: Arguments) throws(UsageError) -> Options {
            let words = arguments.positional
            guard let first = words.first else {
                throw UsageError("say what to do: failscope quarantine add|list|edit|remove")
            }
            guard let action = Action(rawValue: first) else {
                throw UsageError("unknown action '\(RunsCommand.clean(first))': add, list, edit or remove")
            }
            if words.count > 1 { throw UsageError("unexpected argument '\(RunsCommand.clean(words[1]))'") }
            let environment = ProcessInfo.processInfo.environment
            var options = Options(action: action, url: try arguments.required(QuarantineCommand.url))
            options.token = try arguments.value(QuarantineCommand.token)
            options.project = try arguments.value(QuarantineCommand.project)
            options.suite = try arguments.value(QuarantineCommand.suite)
            options.name = try arguments.value(QuarantineCommand.testName)
            options.arguments = try arguments.value(QuarantineCommand.testArguments)
            options.page = try arguments.value(QuarantineCommand.page)
            options.device = try arguments.value(QuarantineCommand.device)
            options.owner = try arguments.value(QuarantineCommand.owner)
            options.reason = try arguments.value(QuarantineCommand.reason)
            options.expires = try arguments.value(QuarantineCommand.expires)
            options.why = try arguments.value(QuarantineCommand.why)
            options.actor =
                try arguments.value(QuarantineCommand.actor)
                ?? [environment["GITHUB_ACTOR"], environment["USER"]].compactMap { $0 }
                .first { !$0.isEmpty }
            options.all = arguments.flag(QuarantineCommand.all)
            options.id = try arguments.value(QuarantineCommand.id)
            options.format = try Format(rawValue: arguments.required(QuarantineCommand.format)) ?? .text
            options.target = try arguments.value(QuarantineCommand.target)
            try options.check()
            return options
        }

        /// The options each action needs and allows.
        private func check() throws(UsageError) {
            func require(_ values: [(String, Any?)]) throws(UsageError) {
                for (name, value) in values where value == nil {
                    throw UsageError("\(action.rawValue) needs --\(name)")
                }
            }
            func refuse(_ values: [(String, Any?)]) throws(UsageError) {
                for (name, value) in values where value != nil {
                    throw UsageError("--\(name) does not apply to \(action.rawValue)")
                }
            }
            let test: [(String, Any?)] = [
                ("project", project), ("suite", suite), ("name", name), ("arguments", arguments),
                ("page", page), ("device", device),
            ]
            switch action {
            case .add:
                try require(
                    [
                        ("project", project), ("suite", suite), ("name", name), ("owner", owner), ("reason", reason),
                        ("expires", expires),
                    ])
                try refuse([("id", id), ("why", why), ("format", format == .text ? nil : format), ("target", target)])
            case .list:
                try refuse(
                    Array(test.dropFirst()) + [
                        ("owner", owner), ("reason", reason), ("expires", expires), ("id", id), ("why", why),
                    ])
                if format == .xcodebuild && target == nil { throw UsageError("--format xcodebuild needs --target") }
                if format != .xcodebuild && target != nil {
                    throw UsageError("--target applies to --format xcodebuild")
                }
            case .edit:
                try require([("id", id), ("why", why)])
                try refuse(test + [("format", format == .text ? nil : format), ("target", target)])
            case .remove:
                try require([("reason", reason)])
                if id == nil { try require([("project", project), ("suite", suite), ("name", name)]) }
                if id != nil && test.contains(where: { $0.1 != nil }) {
                    throw UsageError("give --id or the test (--project, --suite, --name), not both")
                }
                try refuse(
                    [
                        ("owner", owner), ("expires", expires), ("why", why),
                        ("format", format == .text ? nil : format), ("target", target),
                    ])
            }
            if all && action != .list { throw UsageError("--all applies to list") }
        }
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let options = try Options.parse(arguments)
        let api = APIClient(baseURL: options.url, token: options.token)
        do {
            switch options.action {
            case .add:
                let entry = try await api.send(
                    QuarantineEntry.self, "POST", "api/v1/quarantine",
                    json: QuarantineRequest(
                        project: options.project!, suite: options.suite!, name: options.name!,
                        arguments: options.arguments, page: options.page, device: options.device,
                        owner: options.owner!, reason: options.reason!, expires: options.expires!,
                        actor: options.actor))
                print("Quarantined " + describe(entry))
            case .list:
                var query = ["state": options.all ? "all" : "active"]
                query["project"] = options.project
                let list = try await api.get(QuarantineList.self, "api/v1/quarantine", query: query)
                print(render(list, format: options.format, target: options.target ?? ""))
            case .edit:
                let id = options.id!
                let current = try await api.get(QuarantineEntry.self, "api/v1/quarantine/\(id)")
                let entry = try await api.send(
                    QuarantineEntry.self, "PUT", "api/v1/quarantine/\(id)",
                    json: QuarantineEdit(
                        owner: options.owner ?? current.owner, reason: options.reason ?? current.reason,
                        expires: options.expires ?? current.expires, why: options.why!, actor: options.actor))
                print("Changed " + describe(entry))
            case .remove:
                var id = options.id ?? 0
                if options.id == nil { id = try await entryID(of: options, api: api) }
                let entry = try await api.send(
                    QuarantineEntry.self, "POST", "api/v1/quarantine/\(id)/lift",
                    json: QuarantineLift(why: options.reason!, actor: options.actor))
                print("Lifted " + describe(entry))
            }
        } catch let error as APIClientError {
            throw CommandError(RunsCommand.clean("\(error)"))  // it quotes the service: untrusted text
        }
        return 0
    }

    /// The id of the active entry of exactly the test, arguments, page and device of `options`.
    static func entryID(of options: Options, api: APIClient) async throws -> Int {
        let list = try await api.get(
            QuarantineList.self, "api/v1/quarantine", query: ["project": options.project!, "state": "active"])
        guard
            let entry = list.entries.first(where: {
                $0.suite == options.suite && $0.name == options.name && $0.arguments == options.arguments
                    && $0.page == options.page && $0.device == options.device
            })
        else { throw CommandError("no active quarantine entry of that test; `failscope quarantine list` shows them") }
        return entry.id
    }

    /// `list` in `format`.
    static func render(_ list: QuarantineList, format: Format, target: String) -> String {
        switch format {
        case .json: String(decoding: (try? WireCoding.encoder().encode(list)) ?? Data(), as: UTF8.self)
        case .swiftTest: QuarantineExport.swiftTest(list.entries)
        case .xcodebuild: QuarantineExport.xcodebuild(list.entries, target: target)
        case .text: table(list)
        }
    }

    /// One line an entry; test-controlled text cleaned for the terminal.
    static func table(_ list: QuarantineList) -> String {
        guard !list.entries.isEmpty else { return "(no quarantined tests)" }
        return list.entries.map { entry in
            "#\(entry.id)  \(entry.state.rawValue)  until \(entry.expires)  \(RunsCommand.clean(entry.project))  "
                + testText(entry)
                + "  owner \(RunsCommand.clean(entry.owner))  reason \(RunsCommand.clean(entry.reason))"
        }.joined(separator: "\n")
    }

    static func describe(_ entry: QuarantineEntry) -> String {
        "#\(entry.id) \(RunsCommand.clean(entry.project)) \(testText(entry)) until \(entry.expires) "
            + "(\(entry.state.rawValue), owner \(RunsCommand.clean(entry.owner)))"
    }

    private static func testText(_ entry: QuarantineEntry) -> String {
        var text = RunsCommand.clean(entry.suite) + "/" + RunsCommand.clean(entry.name)
        if let arguments = entry.arguments { text += " (\(RunsCommand.clean(arguments)))" }
        if let page = entry.page { text += " on \(RunsCommand.clean(page))" }
        if let device = entry.device { text += " [\(RunsCommand.clean(device))]" }
        return text
    }
}
