import Basics
import Foundation
@testable import ScenarioModel
import Testing
import SharedStore

/// What `explore` writes is read back as the same scenario: every explicit step kind, the settings of
/// every process, the store section copied from the source file.
@Suite struct ScenarioWriterTests {
    static let source = """
    summary: Writer source.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
          rank: int = 0
          score: double?
          pinned: bool = false
          created: date?
          uid: uuid?
          body: string?
          tags: [Tag]
        Tag:
          name: string
    processes:
      app: { role: host }
      share: { role: share }
    steps:
      - app: launch
    """

    /// Every step kind the runner can execute one at a time (not `parallel`, not `workload`), written and
    /// read back.
    static var explicitSteps: [Step] {
        CodableRoundTripTests.everyStep.filter { step in
            if case .parallel = step { return false }
            if case .workload = step { return false }
            return true
        } + [.deliver, .insert(entity: "Note", id: "n-2.b_c", values: ["title": .string("line\nbreak \\ \"q\" #x")])]
    }

    /// A widget's `on-reload:` and a notification service extension's `on-push:` are written with the
    /// process, so a counterexample's system work runs as the scenario's did.
    @Test func aProcesssWorkIsWrittenWithIt() throws {
        let at = SourceLocation(file: "x", line: 1, column: 1)
        var count = ScenarioStep(location: at, process: "widget", step: .count(entity: "Note", expected: 3, predicate: nil, timing: .now))
        count.perReload = [3, 2]
        var widget = RunProcess(name: "widget", settings: ProcessSettings(role: .widget), seed: 2)
        widget.work = [ScenarioStep(location: at, process: "widget", step: .fetch(entity: "Note", predicate: nil, sort: [])), count]
        var service = RunProcess(name: "service", settings: ProcessSettings(role: .notificationService), seed: 3)
        service.work = [ScenarioStep(location: at, process: "service", step: .save)]
        let processes = [RunProcess(name: "app", settings: ProcessSettings(role: .host), seed: 1), widget, service]
        let text = try ScenarioWriter.file(
            name: "written", summary: "Work.", comment: [], storeSource: Self.source, processes: processes,
            steps: [ScenarioStep(location: at, process: "app", step: .launch)], expectation: .pass, seed: 1)
        let back = try ScenarioLoader.parse(yaml: text, file: "written.yaml")
        let written = try #require(back.processes.first { $0.name == "widget" })
        #expect(written.work.map(\.step) == widget.work.map(\.step), "\(text)")
        #expect(written.work.last?.perReload == [3, 2], "\(text)")
        #expect(back.processes.first { $0.name == "service" }?.work.map(\.step) == [.save])
    }

    @Test func countsPerProcessAreWrittenAsTheyAreRead() throws {
        let processes = [RunProcess(name: "app", settings: ProcessSettings(role: .host), seed: 1),
                         RunProcess(name: "share", settings: ProcessSettings(role: .share), seed: 2)]
        let counts = Expectation.counts([AnomalyCount(kind: .busy, atLeast: 1, atMost: 1, process: "share"),
                                         AnomalyCount(kind: .busy, atLeast: 0, atMost: 0, process: "app"),
                                         AnomalyCount(kind: .staleRead, atLeast: 1, atMost: nil)])
        let text = try ScenarioWriter.file(
            name: "written", summary: "Counts.", comment: [], storeSource: Self.source, processes: processes,
            steps: [ScenarioStep(location: SourceLocation(file: "x", line: 1, column: 1), process: "app", step: .launch)],
            expectation: counts, seed: 1)
        #expect(text.contains("expect: { busy: { share: 1, app: 0 }, stale-read: 1+ }"), "\(text)")
        #expect(try ScenarioLoader.parse(yaml: text, file: "written.yaml").expectation == counts)
    }

    private func written(_ steps: [ScenarioStep], processes: [RunProcess]) throws -> Scenario {
        let text = try ScenarioWriter.file(
            name: "written", summary: "A \"written\" scenario.", comment: ["found by a test"], storeSource: Self.source,
            processes: processes, steps: steps, expectation: .anomalies([.staleRead, .busy]), seed: 42)
        return try ScenarioLoader.parse(yaml: text, file: "written.yaml")
    }

    @Test func everyExplicitStepReadsBackTheSame() throws {
        let processes = [RunProcess(name: "app", settings: ProcessSettings(role: .host), seed: 1),
                         RunProcess(name: "share", settings: ProcessSettings(role: .share), seed: 2)]
        for step in Self.explicitSteps {
            for expectError in [nil, ErrorKind.conflict] {
                let process: String? = step.isControl ? nil : "app"
                if process == nil && expectError != nil { continue }
                let at = SourceLocation(file: "x", line: 1, column: 1)
                let original = ScenarioStep(location: at, process: process, step: step, expectError: expectError)
                // What the validator asks to come first: a running process, the objects and copy named.
                var setup: [Step] = step == .launch ? [] : [
                    .launch, .insert(entity: "Note", id: "n1", values: [:]), .insert(entity: "Tag", id: "t1", values: [:]),
                ]
                if case .openCopy = step { setup.append(.copyStore(name: "backup", withWAL: true)) }
                if step == .resume { setup.append(.suspend) }
                // A restore needs the processes the file launched ended; a crash fault, its process running.
                if case .restoreStore = step { setup.append(.exit) }
                var before = setup.map { ScenarioStep(location: at, process: "app", step: $0) }
                if case .fault(.crash(let target, _)) = step { before.append(ScenarioStep(location: at, process: target, step: .launch)) }
                let scenario = try written(before + [original], processes: processes)
                let back = try #require(scenario.steps.last)
                #expect(back.step == step, "\(step)")
                #expect(back.process == process && back.expectError == expectError, "\(step)")
                #expect(scenario.expectation == .anomalies([.staleRead, .busy]) && scenario.seed == 42)
            }
        }
    }

    /// A `parallel` step is written with its children in order, and `schedule: as-written` reads back.
    @Test func aParallelStepAndTheScheduleReadBack() throws {
        let processes = [RunProcess(name: "app", settings: ProcessSettings(role: .host), seed: 1),
                         RunProcess(name: "share", settings: ProcessSettings(role: .share), seed: 2)]
        let at = SourceLocation(file: "x", line: 1, column: 1)
        // A process with steps in a sequence has none in the parallel's other children.
        let sequence = [ScenarioStep(location: at, process: "app", step: .update(id: "n1", values: ["title": .string("a, b")])),
                        ScenarioStep(location: at, process: "app", step: .refreshAll),
                        ScenarioStep(location: at, process: "app", step: .save)]
        let children = [ScenarioStep(location: at, process: "share", step: .save, expectError: .conflict),
                        ScenarioStep(location: at, process: nil, step: .sequence(sequence))]
        let steps = [ScenarioStep(location: at, process: "app", step: .launch),
                     ScenarioStep(location: at, process: "share", step: .launch),
                     ScenarioStep(location: at, process: "app", step: .insert(entity: "Note", id: "n1", values: [:])),
                     ScenarioStep(location: at, process: nil, step: .fault(.holdNotifications(process: "app"))),
                     ScenarioStep(location: at, process: nil, step: .parallel(children)),
                     ScenarioStep(location: at, process: "app", step: .deliver)]
        let text = try ScenarioWriter.file(
            name: "written", summary: "Parallel.", comment: [], storeSource: Self.source, processes: processes, steps: steps,
            expectation: .pass, seed: 1, schedule: .asWritten)
        let scenario = try ScenarioLoader.parse(yaml: text, file: "written.yaml")
        #expect(scenario.schedule == .asWritten)
        #expect(scenario.steps.map(\.step).dropFirst(3).first == .fault(.holdNotifications(process: "app")))
        guard case .parallel(let back) = scenario.steps[4].step else {
            Issue.record("not a parallel step: \(scenario.steps[4].step)")
            return
        }
        #expect(back.prefix(1).map(\.step) == children.prefix(1).map(\.step))
        guard back.count == 2, case .sequence(let inner) = back[1].step else {
            Issue.record("not a share step and a sequence: \(back)")
            return
        }
        #expect(inner.map(\.step) == sequence.map(\.step) && inner.map(\.process) == ["app", "app", "app"],
                "a sequence reads back as its list")
        #expect(back.map(\.process) == ["share", nil] && back.first?.expectError == .conflict)
    }

    @Test func settingsReadBackAsResolved() throws {
        var app = ProcessSettings(role: .host)
        app.refresh = .history
        app.staleness = .interval(.milliseconds(2_500))
        app.trigger = .poll
        app.pollInterval = .milliseconds(300)
        app.observe = .lazy
        app.mergePolicy = .objectTrump
        app.author = .named("phone")
        app.historyAuthors = .only(["share"])
        app.purge = .olderThan(.days(7))
        app.refetch = .reset
        app.notify = false
        app.delivery = .drop
        app.queryGeneration = .pinned
        app.busyTimeout = .milliseconds(50)
        var share = ProcessSettings(role: .share)
        share.author = .none
        share.historyTracking = true
        var watch = ProcessSettings(role: .watch)
        watch.sync = .transfer(latency: .milliseconds(20))
        let processes = [RunProcess(name: "app", settings: app, seed: 1), RunProcess(name: "share", settings: share, seed: 2),
                         RunProcess(name: "watch", settings: watch, seed: 3)]
        let scenario = try written([ScenarioStep(location: SourceLocation(file: "x", line: 1, column: 1), process: "app", step: .launch)],
                                   processes: processes)
        let run = try #require(scenario.runs().first)
        #expect(run.processes.map(\.settings) == [app, share, watch])
        #expect(scenario.store.model.entity(named: "Note")?.attributes.count == 7)
    }

    @Test func modelVersionAndTransactionSettingsReadBack() throws {
        let source = """
        summary: Versions.
        store:
          group: group.test
          name: Notes
          models:
            v1: { Note: { title: string, color: string? } }
            v2: { Note: { title: string } }
        processes:
          app: { role: host }
        steps:
          - app: launch
        """
        var app = ProcessSettings(role: .host)
        app.modelVersion = "v1"
        app.migrate = false
        app.onLoadFailure = .retry
        app.writeTransactions = .deferred
        let text = try ScenarioWriter.file(
            name: "written", summary: "Versions.", comment: [], storeSource: source,
            processes: [RunProcess(name: "app", settings: app, seed: 1)],
            steps: [ScenarioStep(location: SourceLocation(file: "x", line: 1, column: 1), process: "app", step: .launch)],
            expectation: .pass, seed: 1)
        let scenario = try ScenarioLoader.parse(yaml: text, file: "written.yaml")
        #expect(scenario.store.versions.map(\.name) == ["v1", "v2"])
        #expect(try #require(scenario.runs().first).processes[0].settings == app)
    }
}

/// A counterexample of a scenario that starts from a store file names the file by its absolute path.
@Suite struct ScenarioWriterSeedTests {
    @Test func theStoreFileIsWrittenByItsAbsolutePath() throws {
        let source = """
            store:
              group: group.example.notes
              name: Notes
              from: { file: device/Notes.sqlite, objects: { n1: Note 12 } }
              model: { Note: { title: string } }
            """
        let text = try ScenarioWriter.file(
            name: "written", summary: "Seeded.", comment: [], storeSource: source,
            processes: [RunProcess(name: "app", settings: ProcessSettings(role: .host), seed: 1)],
            steps: [ScenarioStep(location: SourceLocation(file: "x", line: 1, column: 1), process: "app", step: .launch)],
            expectation: .pass, seed: 1,
            storeFrom: StoreSeed(path: "/data/device/Notes.sqlite", objects: ["n1": StoreRow(entity: "Note", primaryKey: 12)]))
        #expect(text.contains("  from: { file: \"/data/device/Notes.sqlite\", objects: { n1: \"Note 12\" } }"), "\(text)")
        #expect(!text.contains("device/Notes.sqlite, objects"), "the relative path is gone")
        #expect(text.contains("  model:"))
    }
}
