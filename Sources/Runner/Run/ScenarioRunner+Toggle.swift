import Agent
import Basics
import ScenarioModel
import Trace

/// A control's tap: the system runs the control's action with the value the control shows.
extension ScenarioRunner {
    /// `toggle` with `reads: control`, a step of the App Intent a control's tap runs (`control:`): a
    /// `ControlWidgetToggle` hands its `SetValueIntent` the opposite of the value it shows, which is what
    /// the control's last reload rendered (its `ControlValueProvider` read it then), however the store has
    /// changed since. The tap is recorded as the control's read of that value, at the tap, and judged as
    /// any read is (a value older than a commit before the tap is a `stale-read`); the intent then sets its
    /// opposite through its own context in `slot`'s process. Returns the update's error, if any.
    func toggleFromControl(_ id: String, _ property: String, step: ScenarioStep,
                           on slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord? {
        guard let intent = step.process, let control = slots[intent]?.process.settings.control else {
            throw failure("toggle reads what a control shows, and \(step.process ?? "the step") is no intent a control runs",
                          process: step.process)
        }
        guard let shown = shownByControls[control]?[id] else {
            throw failure("\(control) shows no value of \(id): no reload of it has read \(id) before this tap; ask for one "
                + "first (reload-controls: \(control)), as a control renders its value before anyone can tap it", process: intent)
        }
        var tapped = shown
        tapped.final = true
        tapped.workload = false
        tapped.source = .rendered
        let now = time.reading()
        record(.observed(tapped), start: now, as: control)
        let value = tapped.values[property].flatMap { if case .bool(let flag) = $0 { flag } else { nil } } ?? false
        record(.note("\(control) shows \(id).\(property) = \(value) (rendered at its last reload); the tap runs \(intent) "
            + "with value \(!value)"), as: intent)
        let start = time.reading()
        let reply = try perform(.perform(.update(id: id, values: [property: .bool(!value)])), on: slot,
                                expectError: step.expectError, timeout: timeout(for: step.step, slot))
        afterReply(reply, to: step.step, from: slot, sentAt: start)
        return reply.error
    }
}
