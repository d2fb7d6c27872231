import Basics
import Foundation
import ScenarioModel
import Trace

/// A scenario run prepared for execution: every step numbered (children of `parallel` too), and
/// the trace header that names them.
public struct RunPlan: Sendable {
    /// One numbered step.
    public struct PlannedStep: Sendable {
        public var index: Int
        public var step: ScenarioStep
        /// For `parallel`: its children, numbered after it; for `push` and a widget's `reload`, the
        /// process's work.
        public var children: [PlannedStep]
        /// What the plan decided about this step, recorded in the trace when it runs (a reload request
        /// the budget refused, or one the run ended before).
        public var notes: [String] = []
        /// An operation of a `workload` run as a branch of its `parallel` (`ScenarioRunner.workloadBranch`):
        /// a read is a workload read, a failed save is rolled back.
        public var workloadOperation = false
        /// For a `sleep` that paces a workload's operations in a `parallel`: it lasts until this long after
        /// the `parallel` began (the operation's moment), not its duration after the step before it.
        public var paceOffset: UInt64?
    }

    public let run: ScenarioRun
    public let steps: [PlannedStep]
    public let info: RunInfo
    /// Real time, or deterministic (a function of the file, the variant and the seed).
    public var mode: RunMode { info.mode }
    /// Deterministic mode: where its choices come from (the file's `schedule:`; `explore` sets its own),
    /// and how late a notification may be.
    public var schedule: ScheduleSpec

    public init(run: ScenarioRun, summary: String, mode: RunMode = .realTime) {
        self.run = run
        schedule = ScheduleSpec(strategy: run.schedule == .asWritten ? .asWritten : .likely)
        var counter = 0
        var table: [StepInfo] = []
        var workPlanned: [String: Int] = [:]
        func plan(_ step: ScenarioStep) -> PlannedStep {
            let index = counter
            counter += 1
            table.append(StepInfo(
                index: index, process: step.process,
                location: step.location,
                text: StepText.render(step)))
            var children: [PlannedStep] = []
            switch step.step {
            case .parallel(let inner), .sequence(let inner): children = inner.map(plan)
            case .push, .reload:
                var work = step.process.flatMap(run.process(named:))?.work(for: step.step) ?? []
                if let process = step.process {
                    // The n-th reload or push of a process checks the n-th of a count's values (`expect: [3, 2]`).
                    let n = workPlanned[process, default: 0]
                    workPlanned[process] = n + 1
                    for i in work.indices {
                        guard let values = work[i].perReload, case .count(let entity, _, let predicate, let timing) = work[i].step else { continue }
                        work[i].step = .count(entity: entity, expected: values[min(n, values.count - 1)], predicate: predicate, timing: timing)
                    }
                }
                children = work.map(plan)
            default: break
            }
            return PlannedStep(index: index, step: step, children: children)
        }
        var reloads = ReloadSchedule(run: run)
        var autosaves = AutosaveSchedule(run: run)
        var planned: [PlannedStep] = []
        func retext(_ node: PlannedStep) {
            table[node.index].text = StepText.render(node.step)
            node.children.forEach(retext)
        }
        /// Plans a step, then the autosaves due once it has run; returns the step's position.
        func planWithAutosaves(_ step: ScenarioStep) -> Int {
            planned.append(plan(step))
            let position = planned.count - 1
            for autosave in autosaves.after(&planned[position], plan: plan) { planned.append(plan(autosave)) }
            return position
        }
        // As written (a schedule `explore` wrote out), a `sleep` among a parallel's children holds back the
        // children after it: a nested one's sleep would hold back the outer one's, so it stays nested.
        let written = run.schedule == .asWritten ? run.steps : run.steps.map(NestedParallel.flatten)
        for step in written {
            for autosave in autosaves.before(step) { planned.append(plan(autosave)) }
            planned.append(plan(step))
            let position = planned.count - 1
            // A `parallel` gets the reloads due while it runs among its children, before the autosaves, which
            // see what those reloads do.
            let after = reloads.after(&planned[position], at: position, plan: plan)
            for autosave in autosaves.after(&planned[position], plan: plan) { planned.append(plan(autosave)) }
            if case .parallel = planned[position].step.step { retext(planned[position]) }
            for reload in after { _ = planWithAutosaves(reload) }
        }
        for (position, note) in reloads.unfinished() { planned[position].notes.append(note) }
        for (position, note) in reloads.refused { planned[position].notes.append(note) }
        steps = planned
        let processes = run.processes.map { process in
            TraceProcess(
                name: process.name, role: process.settings.role,
                store: RunPlan.storeName(of: process, group: run.store.group),
                settings: RunPlan.displaySettings(process.settings))
        }
        var info = RunInfo(
            scenario: run.scenario, variant: run.variant, file: run.file, summary: summary, seed: run.rootSeed,
            expected: run.expectation, staleToleranceNanos: run.staleTolerance.nanos, latencyBudget: run.latencyBudget,
            growthLimits: run.growthLimits, processes: processes, steps: table, mode: mode)
        let parents = run.store.model.entityParents
        info.entityParents = parents.isEmpty ? nil : parents
        let constraints = run.store.model.declaredUniquenessConstraints
        info.uniquenessConstraints = constraints.isEmpty ? nil : constraints
        self.info = info
    }

    /// The trace's name for the store a process reads: the group's, or its own container's.
    public static func storeName(of process: RunProcess, group: String) -> String {
        process.settings.storage == .own ? "own:\(process.name)" : "group:\(group)"
    }

    /// The settings as `key: value` text for reports.
    static func displaySettings(_ settings: ProcessSettings) -> [String: String] {
        typealias Key = TraceProcess.SettingKey
        var result: [String: String] = [
            Key.refresh: settings.refresh.rawValue,
            Key.staleness: settings.staleness == .infinite ? TraceProcess.neverExpires : settings.staleness.description,
            Key.trigger: settings.trigger.rawValue,
            "observe": settings.observe.rawValue,
            "merge-policy": settings.mergePolicy.rawValue,
            "history-tracking": String(settings.historyTracking),
            "notify": String(settings.notify),
            "delivery": settings.delivery.rawValue,
            "storage": settings.storage.rawValue,
        ]
        if settings.refresh == .refetch { result["refetch"] = settings.refetch.rawValue }
        if settings.queryGeneration == .pinned { result["query-generation"] = "pinned" }
        if settings.historyStart == .now { result["history-start"] = "now" }
        if settings.readOnly { result["read-only"] = "true" }
        if settings.foreignToken == .reset { result["foreign-token"] = "reset" }
        if settings.writeTransactions == .deferred { result[Key.writeTransactions] = WriteTransactions.deferred.rawValue }
        if let version = settings.modelVersion { result["model"] = version }
        if !settings.migrate { result["migrate"] = "false" }
        if settings.onLoadFailure != .crash { result["on-load-failure"] = settings.onLoadFailure.rawValue }
        if !settings.deleteInaccessibleFaults { result["delete-inaccessible-faults"] = "false" }
        if settings.automaticallyMerges { result["automatically-merges"] = "true" }
        if !settings.contexts.isEmpty {
            result["contexts"] = settings.contexts.map { context in
                let parent = switch context.parent {
                case .store: "store"
                case .view: "view"
                case .context(let name): name
                }
                return "\(context.name) (parent \(parent)\(context.automaticallyMerges ? ", merges" : ""))"
            }.joined(separator: ", ")
        }
        if let widget = settings.widgetButton { result["widget-button"] = widget }
        if let control = settings.control { result["control"] = control }
        if settings.role.isPerformed { result["runs-in"] = settings.runsIn.rawValue }
        if settings.role.isRenderedBySystem {
            result["reload-delay"] = settings.reloadDelay.description
            result["between-reloads"] = settings.betweenReloads.rawValue
            if settings.onNewerModel != .keepRunning { result["on-newer-model"] = settings.onNewerModel.rawValue }
        }
        if settings.role.traits.launch.reload == .timelines {
            result["reload-budget"] = String(settings.reloadBudget)
            result["timeline-policy"] = settings.timelinePolicy.description
        }
        if settings.role.traits.launch == .pushes { result["between-pushes"] = settings.betweenPushes.rawValue }
        if settings.framework == .swiftData {
            result[Key.framework] = settings.framework.rawValue
            // An App Intent's context is made by hand and never autosaves.
            if !settings.role.isPerformed {
                result["autosave"] = String(settings.autosave)
                if settings.autosave { result["autosave-delay"] = settings.autosaveDelay.description }
            }
        }
        return result
    }
}
