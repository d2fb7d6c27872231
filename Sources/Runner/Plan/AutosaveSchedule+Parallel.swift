import Basics
import ScenarioModel

/// Autosaves that come due while a `parallel` runs: its steps are visited in the order of the moments they
/// act (each branch's `sleep`s and clock advances counted from the step's start), and an autosave due
/// before one of them runs beside the branches at its moment, as the system's timer fires while the others
/// go on: a new branch of a `sleep` to that moment and the `autosave`. An app suspended from the foreground
/// in a branch autosaves just before, in its branch, as at a top-level `suspend`; one sent to the
/// background there, or resumed with its timer past, just after; a clock advance that passes a timer fires
/// it just after, in the advance's branch. Before, every autosave waited for the whole `parallel` to end: an
/// extension's save 20 ms in came before an app's autosave due at 10 ms, and an app suspended in a branch
/// kept its changes unsaved.
extension AutosaveSchedule {
    /// A step of the `parallel` that is not a `sleep`, clock advance, sequence or `parallel`: where it is
    /// among the children (indices from the root), and the moment it acts.
    private struct Moment {
        var time: Int64
        var path: [Int]
        /// Its place in the file's order, which orders the steps of one moment.
        var order: Int
    }

    /// Where the plan gets an autosave step: a new branch at a moment, or beside a step of a branch.
    private enum Placement {
        case branch(at: Int64, ScenarioStep)
        case before([Int], ScenarioStep)
        case after([Int], ScenarioStep)
    }

    /// Visits the `parallel` `planned` in the order of its steps' moments, and places the autosaves due
    /// while it runs among its children.
    mutating func placeInside(_ planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        let start = now
        var moments: [Moment] = []
        let end = Self.moments(of: planned, path: [], at: start, into: &moments)
        moments.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        var placements: [Placement] = []
        let location = planned.step.location
        // What the clock advances so far moved the simulated clock beyond the moments counted by sleeps.
        var advanced: Int64 = 0
        for moment in moments {
            let time = moment.time.addingClamped(advanced)
            placements += due(by: time, location: location, advanced: advanced)
            now = time
            let node = Self.node(at: moment.path, in: planned)
            let step = node.step
            if let name = step.process, delays[name] != nil, let change = pending[name] {
                if step.step == .suspend, hosts.contains(name), !inBackground.contains(name), !suspended.contains(name) {
                    // iOS backgrounds an app before it suspends it.
                    pending[name] = nil
                    placements.append(.before(moment.path, autosave(name, change, at: step.location)))
                }
            }
            let wasSuspended = step.process.map(suspended.contains) ?? false
            visit(node)
            if case .advanceClock(let duration) = step.step {
                // The timers the clock passed fire at once, in the branch that moved it.
                advanced = advanced.addingClamped(duration.microseconds)
                placements += due(by: now, location: location, advanced: advanced, after: moment.path)
            }
            guard let name = step.process, let change = pending[name] else { continue }
            if step.step == .resume, wasSuspended, change.due <= now {
                // Its timer fired while it was stopped: it runs once the process runs again.
                pending[name] = nil
                placements.append(.after(moment.path, autosave(name, change, at: step.location)))
            } else if step.step == .background {
                // Going to the background saves at once.
                pending[name] = nil
                backgrounded.removeAll { $0 == name }
                placements.append(.after(moment.path, autosave(name, change, at: step.location)))
            }
        }
        placements += due(by: end.addingClamped(advanced), location: location, advanced: advanced)
        now = end.addingClamped(advanced)
        place(placements, in: &planned, start: start, plan: plan)
    }

    private func autosave(_ name: String, _ change: Pending, at location: SourceLocation) -> ScenarioStep {
        ScenarioStep(location: location, process: name, step: .autosave(changedAt: change.changedAt))
    }

    /// The autosaves due by `moment` (simulated) of processes that can run them, each as a new branch at its
    /// due time less what clock advances moved the clock by then (`advanced`), or just after the step at
    /// `path` (a clock advance that passed it).
    private mutating func due(by moment: Int64, location: SourceLocation, advanced: Int64, after path: [Int]? = nil) -> [Placement] {
        var placements: [Placement] = []
        for name in delays.keys.sorted() {
            guard let change = pending[name], !suspended.contains(name), change.due <= moment else { continue }
            pending[name] = nil
            let step = autosave(name, change, at: location)
            placements.append(path.map { .after($0, step) } ?? .branch(at: max(change.due, now) - advanced, step))
        }
        return placements
    }

    /// The steps of `planned` with their moments, added to `list`; returns the moment it ends.
    private static func moments(of planned: RunPlan.PlannedStep, path: [Int], at start: Int64, into list: inout [Moment]) -> Int64 {
        switch planned.step.step {
        case .sleep(let duration):
            return start.addingClamped(duration.microseconds)
        case .advanceClock:
            // It moves every process's clock at its moment, and takes no time (`placeInside` adds it up).
            list.append(Moment(time: start, path: path, order: list.count))
            return start
        case .sequence:
            var time = start
            for (offset, child) in planned.children.enumerated() {
                time = moments(of: child, path: path + [offset], at: time, into: &list)
            }
            return time
        case .parallel:
            var end = start
            for (offset, child) in planned.children.enumerated() {
                end = max(end, moments(of: child, path: path + [offset], at: start, into: &list))
            }
            return end
        default:
            list.append(Moment(time: start, path: path, order: list.count))
            return start
        }
    }

    private static func node(at path: [Int], in planned: RunPlan.PlannedStep) -> RunPlan.PlannedStep {
        path.reduce(planned) { node, offset in node.children[offset] }
    }

    /// Puts each placement into the `parallel` `planned`, planning its steps with `plan`.
    private func place(_ placements: [Placement], in planned: inout RunPlan.PlannedStep, start: Int64,
                       plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        // Beside a step: the latest path first, so that an insertion moves no path still to come.
        let beside = placements.compactMap { placement -> (path: [Int], after: Bool, step: ScenarioStep)? in
            switch placement {
            case .before(let path, let step): (path, false, step)
            case .after(let path, let step): (path, true, step)
            case .branch: nil
            }
        }.sorted { first, second in
            first.path == second.path ? first.after && !second.after : second.path.lexicographicallyPrecedes(first.path)
        }
        for (path, after, step) in beside {
            Self.insert(plan(step), beside: path, after: after, in: &planned, plan: plan)
        }
        for case .branch(let moment, let step) in placements {
            let wait = moment - start
            if wait > 0 {
                let sleep = ScenarioStep(location: step.location, process: nil, step: .sleep(.microseconds(wait)))
                planned.children.append(plan(ScenarioStep(location: step.location, process: nil, step: .sequence([sleep, step]))))
            } else {
                planned.children.append(plan(step))
            }
        }
        planned.step.step = .parallel(planned.children.map(\.step))
    }

    /// Puts `new` just before or after the step at `path`: into its sequence, or with it into a new one
    /// where it is a branch of its own.
    private static func insert(_ new: RunPlan.PlannedStep, beside path: [Int], after: Bool, in node: inout RunPlan.PlannedStep,
                               plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        guard let offset = path.first else { return }
        if path.count > 1 {
            insert(new, beside: Array(path.dropFirst()), after: after, in: &node.children[offset], plan: plan)
        } else if case .sequence = node.step.step {
            node.children.insert(new, at: after ? offset + 1 : offset)
        } else {
            let alone = node.children[offset]
            var sequence = plan(ScenarioStep(location: alone.step.location, process: nil, step: .sequence([])))
            sequence.children = after ? [alone, new] : [new, alone]
            sequence.step.step = .sequence(sequence.children.map(\.step))
            node.children[offset] = sequence
        }
        switch node.step.step {
        case .sequence: node.step.step = .sequence(node.children.map(\.step))
        case .parallel: node.step.step = .parallel(node.children.map(\.step))
        default: break
        }
    }
}
