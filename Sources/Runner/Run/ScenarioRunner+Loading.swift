import Basics
import ScenarioModel
import Trace

/// A process whose store does not load at launch: it ends (`on-load-failure: crash`, the template's
/// `fatalError`), or it waits and loads again before each of its later steps (`retry`).
extension ScenarioRunner {
    /// Called at a launch whose store did not load (`error` is why; the agent has ended).
    func storeDidNotLoad(_ error: ErrorRecord, _ slot: ProcessSlot) throws(HarnessFailure) {
        switch slot.process.settings.onLoadFailure {
        case .crash:
            record(.error(error), as: slot.name)
            try lifecycle(.storeLoadFailed, slot)
            slot.endedByLoadFailure = true
        case .retry:
            slot.awaitingStore = error
            record(.note("\(slot.name)'s store did not load: \(error.message); it waits, and loads it again before its next step"),
                   as: slot.name)
        }
    }

    /// Before a step of a process waiting for its store. Returns nil when the step should run as usual
    /// (its store loaded now, or the step ends the waiting process), or the step's outcome otherwise:
    /// `.some(nil)` for a step with nothing to do without a store, `.some(error)` when it still does not load.
    func stepWhileAwaitingStore(_ step: Step, _ slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord?? {
        if slot.endedByLoadFailure {
            // The file could not know the launch would fail: the process's steps until it is launched
            // again have nothing to run on.
            if case .launch = step {
                slot.endedByLoadFailure = false
                return nil
            }
            record(.note("\(slot.name) ended at launch because its store did not load; \(step.keyword) was skipped"),
                   as: slot.name)
            return .some(nil)
        }
        guard slot.awaitingStore != nil else { return nil }
        switch step {
        case .exit, .crash, .terminate:
            slot.awaitingStore = nil
            return nil
        case .background, .suspend, .resume, .foreground:
            record(.note("\(slot.name) has not loaded its store yet; \(step.keyword) changes nothing it holds"), as: slot.name)
            return .some(nil)
        default:
            if let error = try spawn(slot) {
                slot.awaitingStore = error
                return .some(error)
            }
            slot.awaitingStore = nil
            try lifecycle(.ready, slot)
            record(.note("\(slot.name) loaded its store"), as: slot.name)
            if case .launch = step { return .some(nil) }
            return nil
        }
    }
}
