import Basics
import ScenarioModel

/// The system's work that a timer on the simulated clock brings due (SwiftData's autosaves, widget and
/// control reloads), as a schedule the plan follows step by step; `placeAmong(_:plan:)` places what comes
/// due while a `parallel` runs among its children, once for every kind of work.
protocol TimedSystemWork {
    /// The simulated time, in microseconds since the run began.
    var now: Int64 { get set }
    /// The work due by `moment`, taken off the schedule, each with the moment it runs.
    mutating func take(dueBy moment: Int64) -> [(at: Int64, step: ScenarioStep)]
    /// Follows `node`, a step of a `parallel` at its moment (`now`): the work that must run just before it
    /// in its branch, and just after it, beyond what its end brings due.
    mutating func pass(_ node: RunPlan.PlannedStep) -> (before: [ScenarioStep], after: [ScenarioStep])
}

extension TimedSystemWork {
    /// Visits the `parallel` `planned` in the order of its steps' moments (`ParallelMoments`) and places the
    /// work due while it runs among its children, planned with `plan`: what is due before a step runs
    /// beside the branches at its moment, as a new branch (a `sleep` to that moment, then the work); what a
    /// step brings due (a request or change due at once, a process resumed with its timer past, a clock
    /// advance that passes a timer) runs just after it, in its branch. A clock advance takes no time: it
    /// moves the simulated clock past the moments the sleeps count.
    mutating func placeAmong(_ planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        let moments = ParallelMoments(of: planned, at: now)
        var placements: [ParallelMoments.Placement] = []
        var advanced: Int64 = 0
        for moment in moments.moments {
            let time = moment.time.addingClamped(advanced)
            placements += take(dueBy: time).map { .branch(at: $0.at.addingClamped(-advanced), $0.step) }
            now = time
            let node = ParallelMoments.node(at: moment.path, in: planned)
            let (before, after) = pass(node)
            placements += before.map { .before(moment.path, $0) }
            if case .advanceClock(let duration) = node.step.step { advanced = advanced.addingClamped(duration.microseconds) }
            placements += take(dueBy: now).map { .after(moment.path, $0.step) }
            placements += after.map { .after(moment.path, $0) }
        }
        let end = moments.end.addingClamped(advanced)
        placements += take(dueBy: end).map { .branch(at: $0.at.addingClamped(-advanced), $0.step) }
        now = end
        moments.place(placements, in: &planned, plan: plan)
    }
}
