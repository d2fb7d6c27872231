import Basics
import ScenarioModel

/// When each SwiftData process's main context autosaves (`autosaveEnabled`, on for `mainContext`).
///
/// Apple documents that the context saves "after changes to inserted or registered models" and "at various
/// times during the lifecycle of windows, scenes, views, and sheets", with no interval; what is reported is
/// a timer started by the first change, and a save when the app goes to the background. So an autosave
/// runs after the first step at whose end the simulated clock (moved by `sleep` and `clock: advance`, as
/// for widget reloads) has passed the first unsaved change plus `autosave-delay`, right after a `background`
/// step with changes pending, and right before an app is suspended from the foreground (iOS backgrounds it
/// first). A process that exits, crashes or is terminated first loses its changes (BUGS.md 26); one suspended
/// when the time comes autosaves when it is resumed, as its timer fires late. One due while a `parallel` runs
/// runs beside its branches at its moment (`placeAmong(_:plan:)`). Decided
/// from the steps alone, so the same file autosaves at the same steps on any machine: the process saves
/// then only if its main context has changes.
struct AutosaveSchedule {
    struct Pending {
        /// The step index of the first change not yet saved.
        var changedAt: Int
        /// When the autosave is due, in microseconds of simulated time.
        var due: Int64
    }

    /// The SwiftData processes whose main context autosaves, by name, with their delay in microseconds.
    let delays: [String: Int64]
    /// The simulated time, in microseconds since the run began.
    var now: Int64 = 0
    var pending: [String: Pending] = [:]
    /// Processes suspended (SIGSTOP): their timers cannot fire until they are resumed.
    var suspended: Set<String> = []
    /// Processes whose pending changes go with a `background` step just seen.
    var backgrounded: [String] = []
    /// The app processes (`host`) the steps have sent to the background and not brought back.
    var inBackground: Set<String> = []
    /// The app processes (`host`) among the scheduled ones.
    let hosts: Set<String>
    /// Where the top-level step being followed is written: the autosaves it brings due are noted there.
    var location = SourceLocation.schedule
    /// The extensions whose process exits once the system's work in it is over (`between-reloads`,
    /// `between-pushes`), taking their unsaved changes with it.
    private let exitAfterWork: Set<String>

    init(run: ScenarioRun) {
        // An App Intent's steps run through a context it makes (`ModelContext(container)`), which does not
        // autosave by default: only main contexts are scheduled.
        delays = Dictionary(uniqueKeysWithValues: run.processes.filter {
            $0.settings.framework == .swiftData && $0.settings.autosave && !$0.settings.role.isPerformed
        }.map { ($0.name, $0.settings.autosaveDelay.microseconds) })
        hosts = Set(run.processes.filter { $0.settings.role == .host }.map(\.name))
        exitAfterWork = Set(run.processes.filter {
            $0.settings.role.isRenderedBySystem ? $0.settings.betweenReloads == .exit : $0.settings.betweenPushes == .exit
        }.map(\.name))
    }

    /// The autosave to run before `step` (a top-level step of the file): iOS moves an app to the background
    /// before it suspends it, so an app suspended straight from the foreground autosaves first, as it does
    /// at a `background` step.
    mutating func before(_ step: ScenarioStep) -> [ScenarioStep] {
        guard step.step == .suspend, let name = step.process, hosts.contains(name), !inBackground.contains(name),
              !suspended.contains(name), let change = pending[name] else { return [] }
        pending[name] = nil
        return [autosave(name, change, at: step.location)]
    }

    /// The autosaves to run after `planned` (a top-level step of the plan, with its children), each as the
    /// system's `autosave` step of its process. An autosave that comes due while a `parallel` runs is made
    /// one of its children instead (`placeAmong(_:plan:)`), planned with `plan`.
    mutating func after(_ planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) -> [ScenarioStep] {
        guard !delays.isEmpty else { return [] }
        backgrounded = []
        location = planned.step.location
        if case .parallel = planned.step.step {
            placeAmong(&planned, plan: plan)
        } else {
            visit(planned)
        }
        var saves: [ScenarioStep] = []
        for name in delays.keys.sorted() {
            guard let change = pending[name], !suspended.contains(name),
                  change.due <= now || backgrounded.contains(name) else { continue }
            pending[name] = nil
            saves.append(autosave(name, change, at: location))
        }
        return saves
    }

    mutating func visit(_ planned: RunPlan.PlannedStep) {
        let step = planned.step
        switch step.step {
        case .advanceClock(let duration), .sleep(let duration):
            now = now.addingClamped(duration.microseconds)
        case .workload(let workload):
            // Its operations are paced over its duration, which passes as a sleep's does.
            now = now.addingClamped(workload.duration.microseconds)
        case .parallel:
            // Branches run side by side: the step takes as long as its longest one (a `parallel` inside
            // another's is visited with the outer one's steps, in the order of their moments).
            let start = now
            var end = now
            for child in planned.children {
                now = start
                visit(child)
                end = max(end, now)
            }
            now = end
        case .autosave:
            if let name = step.process { pending[name] = nil }
        case .sequence:
            for child in planned.children { visit(child) }
        case .push, .reload:
            // The system launches or resumes the process, its work runs, then it is suspended or exits.
            guard let name = step.process else { return }
            suspended.remove(name)
            for child in planned.children { visit(child) }
            guard delays[name] != nil else { return }
            if exitAfterWork.contains(name) { pending[name] = nil } else { suspended.insert(name) }
        default:
            guard let name = step.process, let delay = delays[name] else { return }
            change(name, by: step, at: planned.index, delay: delay)
        }
    }

    /// What `step` does to the changes pending in `name`'s main context.
    mutating func change(_ name: String, by step: ScenarioStep, at index: Int, delay: Int64) {
        switch step.step.unsavedChanges {
        case .made:
            guard step.context == nil, pending[name] == nil else { return }
            pending[name] = Pending(changedAt: index, due: now.addingClamped(delay))
            return
        case .saved, .discarded:
            if step.context == nil { pending[name] = nil }
            return
        case .lost:
            // A process that ends loses what it did not save; one that starts has nothing to save.
            pending[name] = nil
            suspended.remove(name)
            inBackground.remove(name)
            return
        case .kept:
            break
        }
        switch step.step {
        case .foreground:
            inBackground.remove(name)
            suspended.remove(name)
        case .suspend:
            suspended.insert(name)
        case .resume:
            suspended.remove(name)
        case .background:
            inBackground.insert(name)
            if pending[name] != nil { backgrounded.append(name) }
        default:
            break
        }
    }
}
