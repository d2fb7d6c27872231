import Basics
import ScenarioModel

/// Reloads that come due while a `parallel` runs: its steps are visited in the order of the moments they
/// act (`ParallelMoments`), and a reload due before one of them runs beside the branches at its moment, as
/// the system reloads the widget while the others go on: a new branch of a `sleep` to that moment and the
/// `reload`. One due at the moment of its request (an intent's save, a request with no `reload-delay`) runs
/// just after that step, in its branch; a clock advance that passes one runs it just after the advance.
/// Before, every reload waited for the whole `parallel` to end: a widget asked to reload 20 ms in rendered
/// an extension's save made 40 ms in, and a control asked at once rendered a save made after its request.
extension ReloadSchedule {
    /// The reloads due after `planned`, the top-level step at `position` in the plan: for a `parallel`, those
    /// due while it runs are placed among its children (planned with `plan`) and none come after it.
    mutating func after(_ planned: inout RunPlan.PlannedStep, at position: Int,
                        plan: (ScenarioStep) -> RunPlan.PlannedStep) -> [ScenarioStep] {
        guard case .parallel = planned.step.step, !widgets.isEmpty else {
            return after(planned.step, at: position, index: planned.index)
        }
        let moments = ParallelMoments(of: planned, at: now)
        let request = planned.step
        var placements: [ParallelMoments.Placement] = []
        // What the clock advances so far moved the simulated clock beyond the moments counted by sleeps.
        var advanced: Int64 = 0
        for moment in moments.moments {
            let time = moment.time.addingClamped(advanced)
            placements += due(by: time, position: position, index: planned.index, request: request).map {
                .branch(at: $0.at.addingClamped(-advanced), $0.step)
            }
            now = time
            let step = ParallelMoments.node(at: moment.path, in: planned).step
            visit(step, position: position, index: planned.index)
            if case .advanceClock(let duration) = step.step { advanced = advanced.addingClamped(duration.microseconds) }
            // What this step asked for at once (or a clock advance passed) runs just after it.
            placements += due(by: now, position: position, index: planned.index, request: request).map { .after(moment.path, $0.step) }
        }
        let end = moments.end.addingClamped(advanced)
        placements += due(by: end, position: position, index: planned.index, request: request).map {
            .branch(at: $0.at.addingClamped(-advanced), $0.step)
        }
        now = end
        moments.place(placements, in: &planned, plan: plan)
        return []
    }
}
