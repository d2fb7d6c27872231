import Basics
import ScenarioModel

/// Autosaves that come due while a `parallel` runs (`TimedSystemWork.placeAmong(_:plan:)`): one due before a
/// step runs beside the branches at its moment, as the system's timer fires while the others go on. An app
/// suspended from the foreground in a branch autosaves just before, in its branch, as at a top-level
/// `suspend`; one sent to the background there, or resumed with its timer past, just after; a change with
/// an `autosave-delay` of zero, just after it. Before, every autosave waited for the whole `parallel` to
/// end: an extension's save 20 ms in came before an app's autosave due at 10 ms, and an app suspended in a
/// branch kept its changes unsaved.
extension AutosaveSchedule: TimedSystemWork {
    mutating func take(dueBy moment: Int64) -> [(at: Int64, step: ScenarioStep)] {
        var saves: [(at: Int64, step: ScenarioStep)] = []
        for name in delays.keys.sorted() {
            guard let change = pending[name], !suspended.contains(name), change.due <= moment else { continue }
            pending[name] = nil
            saves.append((max(change.due, now), autosave(name, change, at: location)))
        }
        return saves
    }

    mutating func pass(_ node: RunPlan.PlannedStep) -> (before: [ScenarioStep], after: [ScenarioStep]) {
        let step = node.step
        // iOS backgrounds an app before it suspends it.
        let before = self.before(step)
        visit(node)
        guard step.step == .background, let name = step.process, let change = pending[name] else { return (before, []) }
        // Going to the background saves at once.
        pending[name] = nil
        backgrounded.removeAll { $0 == name }
        return (before, [autosave(name, change, at: step.location)])
    }

    func autosave(_ name: String, _ change: Pending, at location: SourceLocation) -> ScenarioStep {
        ScenarioStep(location: location, process: name, step: .autosave(changedAt: change.changedAt))
    }
}
