import Basics
import Foundation
import Runner
import ScenarioModel
import Supervisor
import TestSupport
import Trace

/// Runs scenario YAML through the real runner with real agent processes.
enum RunHarness {
    static let groupsim = BuiltProducts.executable("groupsim")

    /// The first run's planned steps as text, each with the notes the plan left on it (`[...]`): what the
    /// system's work (reloads, pushes) adds, without running anything.
    static func plannedSteps(_ yaml: String) throws -> [String] {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        let plan = RunPlan(run: scenario.runs()[0], summary: scenario.summary)
        return plan.steps.map { step in plan.info.steps[step.index].text + step.notes.map { " [\($0)]" }.joined() }
    }

    /// What the first run's plan runs as the children of the `parallel` at `position` among its top-level
    /// steps, each branch's steps joined by " ; ": where the system's work lands inside it. With `work`, a
    /// reload's or push's work follows it in brackets.
    static func plannedBranches(_ yaml: String, at position: Int, work: Bool = false) throws -> [String] {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        let plan = RunPlan(run: scenario.runs()[0], summary: scenario.summary)
        func text(_ step: RunPlan.PlannedStep) -> String {
            if step.step.step.keyword == "sequence" { return step.children.map(text).joined(separator: " ; ") }
            let inside = work && !step.children.isEmpty ? " [" + step.children.map(text).joined(separator: " ; ") + "]" : ""
            return plan.info.steps[step.index].text + inside
        }
        return plan.steps[position].children.map(text)
    }

    /// Every run of `yaml` (one per variant), or only `variant`.
    static func run(_ yaml: String, variant: String? = nil, executable: String = groupsim,
                    stepTimeout: Swift.Duration = .seconds(15), launchTimeout: Swift.Duration = .seconds(15),
                    mode: RunMode = .realTime, seed: UInt64? = nil, pool: AgentPool? = nil,
                    strategy: ScheduleSpec.Strategy? = nil) throws -> [RunOutcome] {
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: "test.yaml")
        let runs = variant.map { name in scenario.run(variant: name, seed: seed).map { [$0] } ?? [] } ?? scenario.runs(seed: seed)
        let options = RunnerOptions(agentExecutable: executable, launchTimeout: launchTimeout, stepTimeout: stepTimeout, agentPool: pool)
        return runs.map { run in
            var plan = RunPlan(run: run, summary: scenario.summary, mode: mode)
            // The deterministic mode's schedule: `run`'s weighted choices unless a test asks for another.
            if let strategy { plan.schedule = ScheduleSpec(strategy: strategy) }
            return ScenarioRunner.execute(plan, options: options)
        }
    }

    static func single(_ yaml: String, variant: String? = nil, mode: RunMode = .realTime, seed: UInt64? = nil,
                       pool: AgentPool? = nil, strategy: ScheduleSpec.Strategy? = nil) throws -> RunOutcome {
        let outcomes = try run(yaml, variant: variant, mode: mode, seed: seed, pool: pool, strategy: strategy)
        guard outcomes.count == 1, let outcome = outcomes.first else { throw HarnessError("expected one run, got \(outcomes.count)") }
        return outcome
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension RunOutcome {
    /// The `check` records of the run, in order.
    var checks: [CheckRecord] {
        trace.events.compactMap { if case .check(let check) = $0.kind { check } else { nil } }
    }

    /// The final observation of each read of `object` by `process`.
    func reads(of object: String, by process: String) -> [Observation] {
        trace.events.compactMap { event in
            guard event.process == process, case .observed(let observation) = event.kind,
                  observation.object == object, observation.final else { return nil }
            return observation
        }
    }

    func events(of process: String) -> [TraceEvent] { trace.events.filter { $0.process == process } }

    /// Every pid the run's processes had.
    var pids: [Int32] {
        trace.events.compactMap { if case .lifecycle(let change) = $0.kind { change.pid } else { nil } }
    }

    /// Whether no process the run started is still alive (a deterministic trace names no pids: then
    /// whether the supervisor has any child left that a pool does not hold).
    var leftNoProcess: Bool {
        guard plan.mode == .realTime else { return ProcessGuard.liveChildren.isEmpty }
        return pids.allSatisfy { kill($0, 0) != 0 && errno == ESRCH }
    }
}
