import Basics
import Checkers
@testable import Explorer
import Foundation
import Runner
import ScenarioModel
import Testing
import TestSupport

/// Explore finds planted timing-dependent bugs, shrinks them to short scenario files that reproduce in
/// both modes, and reports a strategy without such a bug as clean.
@Suite(.serialized, .spawnsProcesses) struct ExploreTests {
    static let planted = """
    summary: A history consumer that refreshes on the save notification misses a save made while it was suspended.
    store:
      group: group.example.notes
      name: Notes
      model:
        Note:
          title: string
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share }
    explore:
      suspend: [app]
      crash: [app]
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - share: launch
      - share: { update: n1, set: { title: B } }
      - share: save
      - share: exit
      - app: { read: n1, expect: { title: B }, within: 1s }
    variants:
      dropped-while-suspended: { app: { delivery: drop }, expect: pass }
      coalesced: { app: { delivery: coalesce }, expect: pass }
      no-refresh: { app: { refresh: none }, expect: [stale-read] }
    """

    private func explore(_ variant: String, runs: Int = 40) throws -> (VariantExploration, TemporaryDirectory, AgentPool) {
        let scenario = try ScenarioLoader.parse(yaml: Self.planted, file: "planted.yaml")
        let directory = try TemporaryDirectory(prefix: "groupsim-explore")
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 2)
        let explorer = Explorer(executable: BuiltProducts.executable("groupsim"), pool: pool, runs: runs, firstSeed: 1,
                                reportDirectory: directory.url)
        return (explorer.explore(scenario, variant: variant, source: Self.planted), directory, pool)
    }

    @Test func aNotificationDroppedWhileSuspendedIsFoundShrunkAndReproduced() throws {
        let (result, directory, pool) = try explore("dropped-while-suspended")
        defer { pool.close() }
        #expect(result.failing > 0)
        let example = try #require(result.counterexamples.first)
        #expect(example.kind == .unexpectedAnomaly && example.anomaly == .staleRead)
        #expect(example.stepsAfter <= 15 && example.stepsAfter < example.stepsBefore)
        #expect(example.reproducesDeterministic && example.reproducesRealTime)
        let text = try String(contentsOf: directory.url.appendingPathComponent(example.file), encoding: .utf8)
        let written = try ScenarioLoader.parse(yaml: text, file: "counterexample.yaml")
        #expect(written.expectation == .anomalies([.staleRead]))
        #expect(written.steps.contains { $0.step == .suspend }, "the suspension is a step of the file")
        #expect(!written.steps.contains { if case .workload = $0.step { true } else { false } })
    }

    @Test func aStrategyWithoutTheBugReportsNoneFound() throws {
        let (result, _, pool) = try explore("coalesced")
        defer { pool.close() }
        #expect(result.schedules + result.undecided == 40)
        #expect(result.failing == 0 && result.counterexamples.isEmpty)
        #expect(ExploreReport(firstSeed: 1, shards: ["1/1"], variants: [result]).consoleLines.first?.hasSuffix("none found") == true)
    }

    /// A bug a crash hides (the relaunched app reads the store afresh) is timing-dependent: explore
    /// writes the schedule under which the expected anomaly does not show.
    @Test func aBugThatAScheduleHidesIsACounterexampleToo() throws {
        let (result, _, pool) = try explore("no-refresh")
        defer { pool.close() }
        let example = try #require(result.counterexamples.first { $0.kind == .missingAnomaly })
        #expect(example.anomaly == .staleRead)
        #expect(example.reproducesDeterministic)

    }

    /// The read that shows the stale value expects it; a schedule that hands the app's notification of its
    /// own second save over after its next edit and the share's save (a race: both act within a few
    /// milliseconds of the save) merges B,
    /// and the read fails (unmet-expectation) instead of showing the stale-read. The counterexample keeps
    /// that read: without it, it would pass for want of a read whatever the schedule. (The app's save came
    /// before the share's 40 ms launch, and the schedule held its notification past the launch, which no
    /// real-time run does: `CostModel.delivery`.)
    static let expectsTheStaleValue = """
    summary: A dropped notification window leaves the history-merging app stale.
    store:
      group: group.example.notes
      name: Notes
      model:
        Note: { title: string }
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - app: { read: n1, expect: { title: A }, now: true }
      - share: launch
      - share: { update: n1, set: { title: B } }
      - app: { insert: Note, id: n2, set: { title: X } }
      - app: save
      - app: { update: n2, set: { title: Y } }
      - fault: { drop-notifications: app, for: 3s }
      - share: save
      - app: { read: n1, expect: { title: A }, within: 500ms }
      - share: exit
    expect: [stale-read]
    """

    @Test func aCounterexampleWhereTheAnomalyIsMissingKeepsTheChecksThatCouldShowIt() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.expectsTheStaleValue, file: "stale.yaml")
        let directory = try TemporaryDirectory(prefix: "groupsim-explore")
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 2)
        defer { pool.close() }
        var explorer = Explorer(executable: BuiltProducts.executable("groupsim"), pool: pool, runs: 40, firstSeed: 1,
                                reportDirectory: directory.url)
        explorer.realTimeRuns = 1
        let result = explorer.explore(scenario, variant: "default", source: Self.expectsTheStaleValue)
        let example = try #require(result.counterexamples.first { $0.kind == .missingAnomaly }, "\(result.found)")
        let text = try String(contentsOf: directory.url.appendingPathComponent(example.file), encoding: .utf8)
        let written = try ScenarioLoader.parse(yaml: text, file: "counterexample.yaml")
        // The read that could show the stale value stays: without it the file would pass whatever the
        // schedule. The file's steps the bug does not need go (the first read, say).
        let reads = written.steps.filter { if case .read = $0.step { true } else { false } }
        #expect(reads.contains { if case .read(_, _, .within) = $0.step { true } else { false } }, "the within: read stays:\n\(text)")
        // The file's own steps the bug does not need go too: the share's exit at the end shows nothing.
        #expect(!written.steps.contains { $0.process == "share" && $0.step == .exit }, "\(text)")
        #expect(example.reproducesDeterministic)
    }

    /// A variant whose expectation no schedule meets fails as written: explore says so and writes no
    /// counterexample that blames a schedule (explore probe: "under this schedule it does not show it",
    /// shrunk from 11 to 11, for a failure every one of 120 schedules had).
    @Test func aVariantThatFailsInEveryScheduleBlamesTheFileNotASchedule() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.planted.replacingOccurrences(
            of: "coalesced: { app: { delivery: coalesce }, expect: pass }",
            with: "coalesced: { app: { delivery: coalesce }, expect: [stale-read] }"), file: "planted.yaml")
        let directory = try TemporaryDirectory(prefix: "groupsim-explore")
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 2)
        defer { pool.close() }
        let explorer = Explorer(executable: BuiltProducts.executable("groupsim"), pool: pool, runs: 20, firstSeed: 1,
                                reportDirectory: directory.url)
        let result = explorer.explore(scenario, variant: "coalesced", source: Self.planted)
        #expect(result.failing == result.schedules && result.schedules > 1)
        #expect(result.failsEverySchedule && result.counterexamples.isEmpty)
        let report = ExploreReport(firstSeed: 1, shards: ["1/1"], variants: [result])
        #expect(report.consoleLines.first?.contains("every schedule: the file fails as written") == true, "\(report.consoleLines)")
        #expect(report.junit().contains("type=\"every-schedule\""))
    }

    @Test func shardsGetDisjointSeedsAndMergeBack() throws {
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 1)
        defer { pool.close() }
        let url = URL(fileURLWithPath: "/tmp")
        let shards = (1...3).map { Explorer(executable: "", pool: pool, runs: 5, firstSeed: 10, shard: Shard(parsing: "\($0)/3")!, reportDirectory: url) }
        let seeds = shards.map { Set($0.seeds()) }
        #expect(seeds.allSatisfy { $0.count == 5 })
        #expect(seeds[0].isDisjoint(with: seeds[1]) && seeds[1].isDisjoint(with: seeds[2]) && seeds[0].isDisjoint(with: seeds[2]))
        var a = VariantExploration(scenario: "s", variant: "v", file: "s.yaml", expected: .pass)
        a.schedules = 5
        a.found = ["stale-read": 2]
        var b = a
        b.found = ["stale-read": 1, "busy": 1]
        let merged = ExploreReport.merge([ExploreReport(firstSeed: 10, shards: ["1/2"], variants: [a]),
                                          ExploreReport(firstSeed: 10, shards: ["2/2"], variants: [b])])
        #expect(merged.variants.count == 1 && merged.variants[0].schedules == 10)
        #expect(merged.variants[0].found == ["stale-read": 3, "busy": 1])
        #expect(merged.shards == ["1/2", "2/2"])
        // The page wears the reports' frame and stylesheet, and says its outcome in the headline badge.
        let page = merged.html()
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<footer>GroupSim report"))
        #expect(page.contains("<span class=\"badge ok\">no counterexample</span>"))
        #expect(page.contains("<td><span class=\"badge ok\">none</span></td></tr>"))
        #expect(ExploreReport(firstSeed: 1, shards: [], variants: []).html().contains("<span class=\"badge none\">"), "nothing explored is not green")
        // Schedules the harness could not carry through are counted in their own column.
        var c = a
        c.undecided = 2
        let report = ExploreReport(firstSeed: 10, shards: ["1/1"], variants: [c])
        #expect(report.markdown().contains("| s | v | pass | 5 | 2 |"), "\(report.markdown())")
        #expect(report.html().contains("<td class=\"num\">5</td><td class=\"num\">2</td>"))
        #expect(report.consoleLines.first?.contains("2 undecided") == true)
    }

    /// The central race of the domain, with no `explore:` section: the app reads right after the share
    /// extension's save, and its history merge runs on the save's notification. Real time handles the
    /// notification first; the schedule may not.
    static let race = """
    summary: The app reads right after the share extension's save.
    store:
      group: group.example.notes
      name: Notes
      model:
        Note:
          title: string
    processes:
      app: { role: host, refresh: history, trigger: darwin }
      share: { role: share }
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - app: { fetch: Note }
      - app: { read: n1, expect: { title: A }, now: true }
      - share: launch
      - share: { update: n1, set: { title: B } }
      - share: save
      - app: { read: n1, expect: { title: B }, now: true }
      - share: exit
    """

    private func explore(race strategy: ExploreStrategy, runs: Int) throws -> (VariantExploration, TemporaryDirectory, AgentPool) {
        let scenario = try ScenarioLoader.parse(yaml: Self.race, file: "race.yaml")
        let directory = try TemporaryDirectory(prefix: "groupsim-explore")
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 2)
        var explorer = Explorer(executable: BuiltProducts.executable("groupsim"), pool: pool, runs: runs, firstSeed: 1,
                                reportDirectory: directory.url)
        explorer.strategy = strategy
        explorer.realTimeRuns = 3
        return (explorer.explore(scenario, variant: "default", source: Self.race), directory, pool)
    }

    @Test func aReadRacingTheNotificationIsFoundWithoutAnExploreSectionAndReplaysInBothModes() throws {
        let (result, directory, pool) = try explore(race: .random, runs: 30)
        defer { pool.close() }
        #expect(result.failing > 0 && result.found["stale-read"] == result.failing)
        let example = try #require(result.counterexamples.first)
        #expect(example.anomaly == .staleRead && example.stepsAfter <= 15)
        #expect(example.reproducesDeterministic)
        #expect(example.realTimeReproductions == 3, "the hold is honoured in real time: \(example.reproductionText)")
        let text = try String(contentsOf: directory.url.appendingPathComponent(example.file), encoding: .utf8)
        let written = try ScenarioLoader.parse(yaml: text, file: "counterexample.yaml")
        #expect(written.schedule == .asWritten)
        #expect(written.steps.contains { $0.step == .fault(.holdNotifications(process: "app")) })
        #expect(result.replayed == 2 && result.replayedIdentically == 2)
        #expect(result.coverage.map { $0.distinct > 1 && !$0.complete } == true)
    }

    /// A variant with one schedule (no choice to make: its one process posts no notification; nothing to
    /// perturb, no workload) runs it once, and says its coverage is complete; an explore: section gives it
    /// schedules to sample again.
    @Test(arguments: [false, true])
    func aVariantWithASingleScheduleRunsItOnce(perturbed: Bool) throws {
        let yaml = """
            summary: One process alone, with nothing to schedule.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host, notify: false }
            \(perturbed ? "explore: { suspend: [app] }" : "")
            steps:
              - app: launch
              - app: { insert: Note, id: n1, set: { title: A } }
              - app: save
              - app: { read: n1, expect: { title: A }, now: true }
            """
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "single.yaml")
        let directory = try TemporaryDirectory(prefix: "groupsim-explore")
        let pool = AgentPool(executable: BuiltProducts.executable("groupsim"), target: 2)
        defer { pool.close() }
        let explorer = Explorer(executable: BuiltProducts.executable("groupsim"), pool: pool, runs: 10, firstSeed: 1,
                                reportDirectory: directory.url)
        let result = explorer.explore(scenario, variant: "default", source: yaml)
        let coverage = try #require(result.coverage)
        if perturbed {
            #expect(result.schedules == 10 && !coverage.complete)
        } else {
            #expect(result.schedules == 1 && coverage.complete && coverage.distinct == 1, "\(coverage)")
            #expect(result.replayed == 1 && result.replayedIdentically == 1)
        }
        #expect(result.failing == 0)
    }

    @Test func theExhaustiveStrategyTriesEveryScheduleOnceAndSaysSo() throws {
        let (result, _, pool) = try explore(race: .exhaustive, runs: 500)
        defer { pool.close() }
        let coverage = try #require(result.coverage)
        #expect(coverage.complete, "\(coverage)")
        #expect(coverage.distinct == result.schedules, "each schedule once")
        #expect(result.schedules >= 2 && result.schedules < 500)
        #expect(result.counterexamples.first?.anomaly == .staleRead)
    }

    @Test func pctFindsTheRaceToo() throws {
        let (result, _, pool) = try explore(race: .pct(depth: 2), runs: 30)
        defer { pool.close() }
        #expect(result.found["stale-read", default: 0] > 0)
    }
}

/// The shrinker never keeps a count that its smaller file can no longer reach: such a candidate shows a
/// short count because the steps that made the objects went, not because of the schedule.
@Suite struct ImpossibleCountTests {
    private let model = ModelDescription(entities: [
        EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string)], isAbstract: true),
        EntityDescription(name: "Note", attributes: [AttributeDescription(name: "title", type: .string)], parent: "Item"),
    ])
    private let at = SourceLocation(file: "x", line: 1, column: 1)

    private func step(_ process: String?, _ step: Step) -> ScenarioStep {
        ScenarioStep(location: at, process: process, step: step)
    }

    private func count(_ entity: String, _ expected: Int) -> ScenarioStep {
        step("app", .count(entity: entity, expected: expected, predicate: nil, timing: .now))
    }

    @Test func aCountAboveWhatTheStepsInsertIsImpossible() {
        let insert = step("app", .insert(entity: "Note", id: "n1", values: [:]))
        let other = step("share", .insert(entity: "Note", id: "n2", values: [:]))
        #expect(Explorer.hasImpossibleCount([insert, count("Note", 2)], model: model, seeded: false))
        #expect(!Explorer.hasImpossibleCount([insert, other, count("Note", 2)], model: model, seeded: false))
        #expect(!Explorer.hasImpossibleCount([insert, insert, count("Item", 1)], model: model, seeded: false),
                "a sub-entity's objects count for its parent; one id inserted twice is one object")
        #expect(Explorer.hasImpossibleCount([count("Note", 1), insert], model: model, seeded: false), "inserted after the count")
        #expect(Explorer.hasImpossibleCount([step(nil, .parallel([insert, step(nil, .sequence([count("Note", 2)]))]))],
                                            model: model, seeded: false), "inside parallel and sequences too")
        let batch = step("app", .batchInsert(entity: "Note", count: 5, values: [:]))
        #expect(!Explorer.hasImpossibleCount([batch, count("Note", 5)], model: model, seeded: false), "a batch's objects have no ids")
        #expect(!Explorer.hasImpossibleCount([count("Note", 3)], model: model, seeded: true), "a store from a file holds some")
    }
}
