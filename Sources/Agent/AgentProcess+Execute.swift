import Basics
import SharedStore
import Trace

extension AgentProcess {
    /// Carries out one command. One exhaustive switch: a command added to `AgentCommand` does not
    /// compile until the agent says what it does (and a step, in `perform`).
    func execute(_ command: AgentCommand, into outcome: inout CommandOutcome) throws {
        // After `open-copy` the process works on the copy, opened read-only: a write fails as a save to a
        // store added read-only does, instead of reaching the live store.
        if let copy = openedCopyName, command.yieldsOnLockWait || command.step == .sync {
            throw AgentError(kind: .readOnly, description: "this process opened \(copy) read-only (open-copy); it cannot write")
        }
        switch command {
        case .perform(let step, let workload):
            try perform(step, workload: workload, into: &outcome)
        // Lifecycle seen from inside the process.
        case .becomeActive:
            if settings.trigger == .activation { runRefresh(reason: .activation) }
        case .enterBackground:
            // A backgrounded app keeps running and receiving notifications: nothing changes here.
            break
        // Harness requests.
        case .armCrashDuringSave:
            crashArmed = true
        case .advanceClock(let nanos):
            clock.advance(byNanos: nanos)
        case .lockState:
            outcome.lock = currentLock()
        case .timerRefresh:
            runRefresh(reason: .poll)
        case .commitHeld:
            if heldWrite?.crashAtCommit == true { dieAtCommit() }
            try commitHeldWrite(into: &outcome)
        case .handleNotifications, .awaitLock:
            // The request's notifications, and a refresh's write waiting for a lock, were handled before.
            break
        case .finalRefresh:
            runRefresh(reason: .final)
            recordFinalView()
        case .finalView:
            recordFinalView()
        case .exit:
            // The driver replies and ends the loop; nothing to do to the store.
            break
        }
    }
}
