import Basics
import ScenarioModel

/// Autosaves that come due while a `parallel` runs: its steps are visited in the order of the moments they
/// act (`ParallelMoments`), and an autosave due before one of them runs beside the branches at its moment,
/// as the system's timer fires while the others go on: a new branch of a `sleep` to that moment and the
/// `autosave`. An app suspended from the foreground in a branch autosaves just before, in its branch, as at
/// a top-level `suspend`; one sent to the background there, or resumed with its timer past, just after; a
/// clock advance that passes a timer fires it just after, in the advance's branch. Before, every autosave
/// waited for the whole `parallel` to end: an extension's save 20 ms in came before an app's autosave due at
/// 10 ms, and an app suspended in a branch kept its changes unsaved.
extension AutosaveSchedule {
    /// Visits the `parallel` `planned` in the order of its steps' moments, and places the autosaves due
    /// while it runs among its children.
    mutating func placeInside(_ planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        let moments = ParallelMoments(of: planned, at: now)
        var placements: [ParallelMoments.Placement] = []
        let location = planned.step.location
        // What the clock advances so far moved the simulated clock beyond the moments counted by sleeps.
        var advanced: Int64 = 0
        for moment in moments.moments {
            let time = moment.time.addingClamped(advanced)
            placements += due(by: time, location: location, advanced: advanced)
            now = time
            let node = ParallelMoments.node(at: moment.path, in: planned)
            let step = node.step
            if let name = step.process, delays[name] != nil, let change = pending[name], step.step == .suspend,
               hosts.contains(name), !inBackground.contains(name), !suspended.contains(name) {
                // iOS backgrounds an app before it suspends it.
                pending[name] = nil
                placements.append(.before(moment.path, autosave(name, change, at: step.location)))
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
        let end = moments.end.addingClamped(advanced)
        placements += due(by: end, location: location, advanced: advanced)
        now = end
        moments.place(placements, in: &planned, plan: plan)
    }

    private func autosave(_ name: String, _ change: Pending, at location: SourceLocation) -> ScenarioStep {
        ScenarioStep(location: location, process: name, step: .autosave(changedAt: change.changedAt))
    }

    /// The autosaves due by `moment` (simulated) of processes that can run them, each as a new branch at its
    /// due time less what clock advances moved the clock by then (`advanced`), or just after the step at
    /// `path` (a clock advance that passed it).
    private mutating func due(by moment: Int64, location: SourceLocation, advanced: Int64,
                              after path: [Int]? = nil) -> [ParallelMoments.Placement] {
        var placements: [ParallelMoments.Placement] = []
        for name in delays.keys.sorted() {
            guard let change = pending[name], !suspended.contains(name), change.due <= moment else { continue }
            pending[name] = nil
            let step = autosave(name, change, at: location)
            placements.append(path.map { .after($0, step) } ?? .branch(at: max(change.due, now).addingClamped(-advanced), step))
        }
        return placements
    }
}
