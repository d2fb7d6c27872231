import Basics
@testable import Explorer
import ScenarioModel
import Testing

/// Schedules are valid scenarios: perturbations only where the process's lifecycle allows them, a
/// suspended process resumed before its next step, a crashed one launched again before it.
@Suite struct PerturberTests {
    static let yaml = """
    summary: Perturber.
    store: { group: group.test, name: Notes, model: { Note: { title: string } } }
    processes:
      app: { role: host }
      share: { role: share }
    explore:
      suspend: [app]
      crash: [share]
      drop-notifications: [app]
    steps:
      - app: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: save
      - share: launch
      - share: { update: n1, set: { title: B } }
      - share: save
      - share: exit
      - app: { read: n1, expect: { title: B }, within: 1s }
    """

    @Test func everyScheduleOfManySeedsIsAValidScenario() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.yaml, file: "p.yaml")
        #expect(scenario.explore.suspend == ["app"] && scenario.explore.crash == ["share"])
        let perturber = Perturber(space: scenario.explore)
        var inserted = 0
        for seed in UInt64(1)...200 {
            var random = SeededRandom(seed: seed)
            let steps = perturber.perturb(scenario.steps, random: &random)
            inserted += steps.count - scenario.steps.count
            for process in ["app", "share"] {
                let states = LifecycleSimulation.states(of: process, over: steps)
                for (index, step) in steps.enumerated() where step.process == process {
                    switch step.step {
                    case .launch: #expect(!states[index].isRunning, "seed \(seed): launched while running")
                    case .resume: #expect(states[index] == .suspended, "seed \(seed)")
                    case .suspend, .crash: #expect(states[index].isRunning, "seed \(seed)")
                    default: #expect(states[index] == .active || states[index] == .background,
                                     "seed \(seed): \(step.step.keyword) on a process that is \(states[index])")
                    }
                }
            }
        }
        #expect(inserted > 100, "most schedules perturb something")
    }

    /// A notification service extension kept between pushes is suspended after each, and may be terminated
    /// there (iOS reclaiming it); one that exits after a push is not running, and cannot.
    @Test func aKeptExtensionIsSuspendedBetweenPushesAndMayBeTerminatedThere() throws {
        let scenario = try ScenarioLoader.parse(yaml: """
            summary: Pushes.
            store: { group: group.test, name: Chat, model: { Message: { title: string } } }
            processes:
              app: { role: host }
              service: { role: notification-service, between-pushes: suspend, on-push: [ { fetch: Message } ] }
            explore:
              terminate: [service]
            steps:
              - app: launch
              - service: push
              - app: { insert: Message, id: m1, set: { title: A } }
              - app: save
              - service: push
            """, file: "p.yaml")
        #expect(LifecycleSimulation.states(of: "service", over: scenario.steps, keptAfterPush: true)
            == [.notRunning, .notRunning, .suspended, .suspended, .suspended, .suspended])
        #expect(LifecycleSimulation.states(of: "service", over: scenario.steps).allSatisfy { $0 == .notRunning })
        var random = SeededRandom(seed: 3)
        let perturbed = Perturber(space: scenario.explore, keptAfterPush: ["service"]).perturb(scenario.steps, random: &random)
        #expect(perturbed.contains { if case .terminate = $0.step { $0.process == "service" } else { false } })
        #expect(Perturber(space: scenario.explore).perturb(scenario.steps, random: &random) == scenario.steps)
    }

    @Test func aFileWithoutExploreKeepsItsSteps() throws {
        let plain = Self.yaml.replacingOccurrences(of: "explore:\n  suspend: [app]\n  crash: [share]\n  drop-notifications: [app]\n", with: "")
        let scenario = try ScenarioLoader.parse(yaml: plain, file: "p.yaml")
        var random = SeededRandom(seed: 3)
        #expect(Perturber(space: scenario.explore).perturb(scenario.steps, random: &random) == scenario.steps)
    }

    @Test func exploreNamesDeclaredProcesses() {
        let bad = Self.yaml.replacingOccurrences(of: "suspend: [app]", with: "suspend: [ap]")
        #expect(throws: ScenarioErrors.self) { try ScenarioLoader.parse(yaml: bad, file: "p.yaml") }
    }
}
