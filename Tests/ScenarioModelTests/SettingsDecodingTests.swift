import Basics
@testable import ScenarioModel
import Testing

/// Every setting of the contract's table decodes, with every value it lists, and roles set defaults.
@Suite struct SettingsDecodingTests {
    /// The settings of process `app` declared with `lines` (each `key: value`).
    private func settings(_ lines: String, role: ProcessRole = .host) throws -> ProcessSettings {
        let indented = lines.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let yaml = """
            summary: Settings.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app:
                role: \(role.rawValue)
            \(indented)
              share:
                role: share
                author: writer
            steps:
              - app: launch
            """
        return try Fixture.scenario(yaml).processes[0].settings
    }

    @Test func defaultsAreTheFirstListedValues() throws {
        let defaults = try settings("")
        #expect(defaults.refresh == .none && defaults.staleness == .infinite && defaults.trigger == .darwin)
        #expect(defaults.pollInterval == .milliseconds(100) && defaults.observe == .launch && defaults.mergePolicy == .error)
        #expect(defaults.historyTracking && defaults.author == .processName && defaults.historyAuthors == .allButOwn)
        #expect(defaults.purge == .none && defaults.refetch == .keepRegistered && defaults.notify)
        #expect(defaults.delivery == .coalesce && defaults.queryGeneration == .unpinned)
        #expect(defaults.busyTimeout == .seconds(5) && defaults.storage == .group && defaults.sync == .none)
    }

    @Test func watchDefaultsToItsOwnStorage() throws {
        #expect(try settings("", role: .watch).storage == .own)
        #expect(try settings("storage: group", role: .watch).storage == .group)
        #expect(try settings("", role: .action).storage == .group)
    }

    @Test func everySettingDecodes() throws {
        let decoded = try settings("""
            refresh: history
            staleness: 2.5
            trigger: poll
            poll-interval: 20ms
            observe: lazy
            merge-policy: object-trump
            history-tracking: false
            author: none
            history-authors: [share, writer]
            purge: { older-than: 7d }
            refetch: refresh-refetched
            notify: false
            delivery: queue
            query-generation: pinned
            busy-timeout: 50ms
            storage: own
            sync: { transfer: { latency: 2s } }
            """)
        var expected = ProcessSettings(role: .host)
        expected.refresh = .history
        expected.staleness = .interval(.milliseconds(2_500))
        expected.trigger = .poll
        expected.pollInterval = .milliseconds(20)
        expected.observe = .lazy
        expected.mergePolicy = .objectTrump
        expected.historyTracking = false
        expected.author = TransactionAuthor.none
        expected.historyAuthors = .only(["share", "writer"])
        expected.purge = .olderThan(.days(7))
        expected.refetch = .refreshRefetched
        expected.notify = false
        expected.delivery = .queue
        expected.queryGeneration = .pinned
        expected.busyTimeout = .milliseconds(50)
        expected.storage = .own
        expected.sync = .transfer(latency: .seconds(2))
        #expect(decoded == expected)
    }

    @Test(arguments: [("none", PurgePolicy.none), ("consumed-by-all", .consumedByAll), ("own-token", .ownToken),
                      ("{ older-than: 12h }", .olderThan(.hours(12)))])
    func everyPurgePolicyDecodes(text: String, policy: PurgePolicy) throws {
        #expect(try settings("purge: \(text)").purge == policy)
    }

    @Test(arguments: [("none", SyncMode.none), ("transfer", .transfer(latency: .zero)),
                      ("{ transfer: true, latency: 50ms }", .transfer(latency: .milliseconds(50))),
                      ("{ transfer: { latency: 1s } }", .transfer(latency: .seconds(1)))])
    func everySyncFormDecodes(text: String, sync: SyncMode) throws {
        #expect(try settings("sync: \(text)").sync == sync)
    }

    /// The contract's "`transfer` with `latency:`" written as two settings side by side, in either order.
    @Test func aLatencyBesideSyncTransferIsItsLatency() throws {
        #expect(try settings("sync: transfer\nlatency: 100ms").sync == .transfer(latency: .milliseconds(100)))
        #expect(try settings("latency: 2s\nsync: transfer").sync == .transfer(latency: .seconds(2)))
        #expect(throws: (any Error).self) { try settings("latency: 2s") }
    }

    @Test(arguments: MergePolicy.allCases)
    func everyMergePolicyDecodes(policy: MergePolicy) throws {
        #expect(try settings("merge-policy: \(policy.rawValue)").mergePolicy == policy)
    }

    @Test func everyKeywordSettingAcceptsEveryValue() throws {
        for value in RefreshStrategy.allCases {
            let framework: PersistenceFramework = value.isAvailable(in: .coreData) ? .coreData : .swiftData
            #expect(try settings("framework: \(framework.rawValue)\nrefresh: \(value.rawValue)").refresh == value)
        }
        for value in RefreshTrigger.allCases { #expect(try settings("trigger: \(value.rawValue)").trigger == value) }
        for value in ObserveTiming.allCases { #expect(try settings("observe: \(value.rawValue)").observe == value) }
        for value in RefetchMode.allCases { #expect(try settings("refetch: \(value.rawValue)").refetch == value) }
        for value in DeliveryPolicy.allCases { #expect(try settings("delivery: \(value.rawValue)").delivery == value) }
        for value in QueryGeneration.allCases {
            #expect(try settings("query-generation: \(value.rawValue)").queryGeneration == value)
        }
        for value in WriteTransactions.allCases {
            #expect(try settings("write-transactions: \(value.rawValue)").writeTransactions == value)
        }
        #expect(try settings("").writeTransactions == .immediate)
    }

    @Test func authorMayBeANameAndResolvesToTheProcessNameByDefault() throws {
        #expect(try settings("author: phone").author == .named("phone"))
        #expect(TransactionAuthor.processName.resolved(processName: "app") == "app")
        #expect(TransactionAuthor.none.resolved(processName: "app") == nil)
    }

    @Test func historyAuthorsAcceptsAllButOwn() throws {
        #expect(try settings("history-authors: all-but-own").historyAuthors == .allButOwn)
    }

    @Test func pollIntervalMustBePositive() {
        let found = Fixture.errors(Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: "    role: host", with: "    role: host\n    poll-interval: 0"))
        #expect(found.map(\.message) == ["poll-interval must be longer than 0; write a duration like 100ms."])
    }
}

/// Wrong setting values say what to write instead.
@Suite struct SettingErrorTests {
    private func messages(_ setting: String) -> [String] {
        Fixture.errors(Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: "    role: host", with: "    role: host\n    \(setting)")).map(\.message)
    }

    @Test func writeTransactionsNamesItsValues() {
        let found = messages("write-transactions: exclusive")
        #expect(found.count == 1 && found[0].contains("immediate") && found[0].contains("deferred"), "\(found)")
    }

    @Test func transferFalseAsksForSyncNone() {
        #expect(messages("sync: { transfer: false }") == ["transfer: false turns sync off; write sync: none instead."])
    }

    @Test func olderThanWithoutADurationShowsTheForm() {
        #expect(messages("purge: older-than") == ["older-than needs a duration; write it as { older-than: 7d }."])
    }

    @Test func stalenessThatIsNeitherSecondsNorADurationIsAnError() {
        #expect(messages("staleness: never").first?.hasPrefix("expected staleness in seconds, like -1") == true)
    }

    /// A number of seconds finer than a microsecond is seconds all the same: the message says what is wrong
    /// with it (it said "expected staleness in seconds", found "0.0000001").
    @Test func stalenessFinerThanAMicrosecondSaysSo() {
        #expect(messages("staleness: 0.0000001") == [
            "the staleness 0.0000001 s is finer than a microsecond; round it to whole microseconds (0.000001 is the finest), or write 0 to always re-read.",
        ])
    }

    /// A duration on the simulated clock is suggested in its usual units (a timeline policy of 15 means
    /// 15 minutes far more often than 15 ms).
    @Test func aSimulatedDurationWithoutAUnitSuggestsMinutes() {
        #expect(messages("purge: { older-than: 7 }").first?.contains("write it like 7m, 7s or 7d.") == true,
                "\(messages("purge: { older-than: 7 }"))")
    }

    @Test func boolSettingRejectsYes() {
        #expect(messages("notify: yes") == ["expected true or false for notify, but found 'yes'."])
    }

    @Test func historyAuthorsScalarOtherThanAllButOwnIsAnError() {
        #expect(messages("history-authors: share").first?.contains("as a list of authors like [app, share]") == true)
    }
}

/// `contexts:` declares background and child contexts.
@Suite struct ContextDeclarationTests {
    private func messages(_ setting: String) -> [String] {
        Fixture.errors(Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: "    role: host", with: "    role: host\n    \(setting)")).map(\.message)
    }

    @Test func contextsDecodeInFileOrderWithTheirParents() throws {
        let yaml = Fixture.yaml(steps: "  - app: { save: true, context: leaf }").replacingOccurrences(
            of: "    role: host",
            with: "    role: host\n    contexts: { importer: { automatically-merges: true }, editor: { parent: view }, leaf: { parent: editor } }")
        let contexts = try Fixture.scenario(yaml).processes[0].settings.contexts
        #expect(contexts == [
            ContextDeclaration(name: "importer", parent: .store, automaticallyMerges: true),
            ContextDeclaration(name: "editor", parent: .view),
            ContextDeclaration(name: "leaf", parent: .context("editor")),
        ])
    }

    /// A variant's `contexts:` changes the contexts it names, setting by setting, and adds new ones: the
    /// rest stay as the process declares them. Replaced whole, `editor: { staleness: 0 }` made the editor a
    /// background context of the store, and dropped the importer.
    @Test func aVariantsContextsAreMergedIntoTheProcesssOwn() throws {
        let yaml = Fixture.yaml(steps: "  - app: launch", after: """
            variants:
              fresh: { app: { contexts: { editor: { staleness: 0 }, extra: { parent: editor } } } }
              plain: {}
            """).replacingOccurrences(
            of: "    role: host",
            with: "    role: host\n    contexts: { importer: { automatically-merges: true }, editor: { parent: view } }")
        let scenario = try Fixture.scenario(yaml)
        func contexts(_ variant: String) -> [ContextDeclaration]? {
            scenario.run(variant: variant)?.processes.first { $0.name == "app" }?.settings.contexts
        }
        #expect(contexts("fresh") == [
            ContextDeclaration(name: "importer", parent: .store, automaticallyMerges: true),
            ContextDeclaration(name: "editor", parent: .view, staleness: .interval(.zero)),
            ContextDeclaration(name: "extra", parent: .context("editor")),
        ])
        #expect(contexts("plain") == [
            ContextDeclaration(name: "importer", parent: .store, automaticallyMerges: true),
            ContextDeclaration(name: "editor", parent: .view),
        ])
        // A variant's mistake is reported where the variant wrote it.
        let errors = Fixture.errors(yaml.replacingOccurrences(of: "staleness: 0", with: "parnt: view"))
        #expect(errors.count == 1 && errors[0].message.contains("parnt") && errors[0].line == Fixture.firstStepLine + 3, "\(errors)")
    }

    @Test func aParentMustBeDeclaredAbove() {
        let found = messages("contexts: { leaf: { parent: editor }, editor: { parent: view } }")
        #expect(found.count == 1 && found[0].contains("neither store, view nor a context declared above it"), "\(found)")
        #expect(messages("contexts: { editor: { parent: editor } }") == ["context 'editor' cannot be its own parent."])
    }

    @Test func nestingIsBounded() throws {
        let chain = (1...Limits.contextDepth + 1).map { i in "c\(i): { parent: \(i == 1 ? "view" : "c\(i - 1)") }" }
        let deepest = messages("contexts: { \(chain.joined(separator: ", ")) }")
        #expect(deepest == ["context 'c\(Limits.contextDepth + 1)' nests more than \(Limits.contextDepth) contexts deep; apps nest two or three."])
        let yaml = Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: "    role: host", with: "    role: host\n    contexts: { \(chain.dropLast().joined(separator: ", ")) }")
        #expect(try Fixture.scenario(yaml).processes[0].settings.contexts.count == Limits.contextDepth)
    }

    @Test func parentWordsAndUnknownKeysAreRefused() {
        #expect(messages("contexts: { view: { parent: store } }").first?.contains("names a parent, not a context") == true)
        #expect(messages("contexts: { editor: { parnt: view } }").first?.contains("parnt") == true)
        #expect(messages("contexts: [editor]").first?.contains("contexts (a mapping") == true)
        #expect(messages("contexts: { editor: view }").first?.contains("the settings of context 'editor'") == true)
        #expect(messages("contexts: { editor: { automatically-merges: 1 } }").count == 1)
        #expect(messages("contexts: { sync: { merge-policy: mine } }").first?.contains("merge policy") == true)
        #expect(messages("contexts: { sync: { staleness: soon } }").first?.contains("expected staleness") == true)
    }

    /// `pin-generation` on a background context, and from another context's token; a child context has no
    /// generation of its own, to pin or to share.
    @Test func aGenerationIsPinnedOnARootContextFromAnotherOrFromCurrent() throws {
        func yaml(_ steps: String) -> String {
            Fixture.yaml(steps: "  - app: launch\n" + steps).replacingOccurrences(
                of: "    role: host", with: "    role: host\n    contexts: { importer: {}, editor: { parent: view } }")
        }
        let scenario = try Fixture.scenario(yaml("""
              - app: { pin-generation: current, context: importer }
              - app: { pin-generation: importer }
              - app: { pin-generation: view, context: importer }
              - app: { unpin-generation: true, context: importer }
            """))
        #expect(scenario.steps.dropFirst().map(\.step) == [.pinGeneration(from: nil), .pinGeneration(from: "importer"),
                                                          .pinGeneration(from: "view"), .unpinGeneration])
        #expect(scenario.steps[1].context == "importer" && scenario.steps[2].context == nil)
        #expect(try StepWriter.line(scenario.steps[3]) == "app: { pin-generation: view, context: importer }")
        func messages(_ steps: String) -> [String] { Fixture.errors(yaml(steps)).map(\.message) }
        #expect(messages("  - app: { pin-generation: current, context: editor }").first?.contains("editor is a child context") == true)
        #expect(messages("  - app: { pin-generation: editor }").first?.contains("no query generation of its own to share") == true)
        #expect(messages("  - app: { pin-generation: store }").first?.contains("'store' names no context") == true)
        #expect(messages("  - app: { pin-generation: importer, context: importer }").first?.contains("already shares its own") == true)
        #expect(messages("  - app: { pin-generation: \"a b\" }").first?.contains("current, view or a background context's name") == true)
        #expect(messages("  - app: { pin-generation: imorter }").first?.contains("'imorter', which is no context of app; did you mean 'importer'?") == true,
                "\(messages("  - app: { pin-generation: imorter }"))")
        #expect(messages("  - app: { pin-generation: view }").first?.contains("already shares its own query generation") == true)
        #expect(messages("  - app: { unpin-generation: true, context: editor }").first?.contains("editor is a child context") == true)
        // A context the process's steps run through is one of its contexts.
        _ = try Fixture.scenario(yaml("  - app: { fetch: Note, context: sync }\n  - app: { pin-generation: sync }"))
    }

    @Test func aContextNamesItsOwnAuthorPolicyAndStaleness() throws {
        let yaml = Fixture.yaml(steps: "  - app: { save: true, context: sync }").replacingOccurrences(
            of: "    role: host",
            with: "    role: host\n    contexts: { sync: { author: cloud-sync, merge-policy: object-trump, staleness: 0 } }")
        let contexts = try Fixture.scenario(yaml).processes[0].settings.contexts
        #expect(contexts == [ContextDeclaration(name: "sync", author: .named("cloud-sync"), mergePolicy: .objectTrump,
                                                staleness: .interval(try Duration(parsing: "0s")))])
    }

    @Test func theWriterWritesThemBack() throws {
        var settings = ProcessSettings(role: .host)
        settings.contexts = [ContextDeclaration(name: "editor", parent: .view, automaticallyMerges: true),
                             ContextDeclaration(name: "leaf", parent: .context("editor")),
                             ContextDeclaration(name: "importer"),
                             ContextDeclaration(name: "sync", author: .named("cloud-sync"), mergePolicy: .objectTrump,
                                                staleness: .interval(try Duration(parsing: "500ms"))),
                             ContextDeclaration(name: "quiet", author: TransactionAuthor.none, staleness: .infinite)]
        let text = try ScenarioWriter.file(
            name: "written", summary: "Contexts.", comment: [], storeSource: ScenarioWriterTests.source,
            processes: [RunProcess(name: "app", settings: settings, seed: 1)],
            steps: [ScenarioStep(location: SourceLocation(file: "x", line: 1, column: 1), process: "app", step: .launch)],
            expectation: .pass, seed: 1)
        #expect(text.contains("contexts: { editor: { parent: view, automatically-merges: true }, leaf: { parent: editor }, importer: {}, "
            + "sync: { author: cloud-sync, merge-policy: object-trump, staleness: 500ms }, quiet: { author: none, staleness: -1 } }"), "\(text)")
        let back = try ScenarioLoader.parse(yaml: text, file: "written.yaml")
        #expect(back.processes[0].settings.contexts == settings.contexts)
    }
}
