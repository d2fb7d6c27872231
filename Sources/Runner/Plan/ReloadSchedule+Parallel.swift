import Basics
import ScenarioModel

/// Reloads that come due while a `parallel` runs (`TimedSystemWork.placeAmong(_:plan:)`): one due before a
/// step runs beside the branches at its moment, as the system reloads the widget while the others go on;
/// one due at the moment of its request (an intent's save, a request with no `reload-delay`) runs just
/// after that step, in its branch, as does one a clock advance passes. Before, every reload waited for the
/// whole `parallel` to end: a widget asked to reload 20 ms in rendered an extension's save made 40 ms in,
/// and a control asked at once rendered a save made after its request.
extension ReloadSchedule {
    /// The reloads due after `planned`, the top-level step at `position` in the plan: for a `parallel`, those
    /// due while it runs are placed among its children (planned with `plan`) and none come after it.
    mutating func after(_ planned: inout RunPlan.PlannedStep, at position: Int,
                        plan: (ScenarioStep) -> RunPlan.PlannedStep) -> [ScenarioStep] {
        guard case .parallel = planned.step.step, !widgets.isEmpty else {
            return after(planned.step, at: position, index: planned.index)
        }
        var inside = InParallel(schedule: self, position: position, request: planned)
        inside.placeAmong(&planned, plan: plan)
        self = inside.schedule
        return []
    }

    /// The schedule while it follows the steps of the `parallel` `request`, the top-level step at `position`.
    private struct InParallel: TimedSystemWork {
        var schedule: ReloadSchedule
        let position: Int
        let request: RunPlan.PlannedStep

        var now: Int64 {
            get { schedule.now }
            set { schedule.now = newValue }
        }

        mutating func take(dueBy moment: Int64) -> [(at: Int64, step: ScenarioStep)] {
            schedule.due(by: moment, position: position, index: request.index, request: request.step)
        }

        mutating func pass(_ node: RunPlan.PlannedStep) -> (before: [ScenarioStep], after: [ScenarioStep]) {
            schedule.visit(node.step, position: position, index: request.index)
            return ([], [])
        }
    }
}
