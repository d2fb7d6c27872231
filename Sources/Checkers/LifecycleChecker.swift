import Trace

/// Finds `lock-held-while-suspended`: a process suspended with a transaction open on a shared store,
/// which iOS answers by killing it with 0xdead10cc. The runner records what it held; the idle
/// connection's standing WAL locks are not recorded as held and never count.
struct LifecycleChecker {
    let context: RunContext

    static func check(_ change: LifecycleChange, process: String, step: Int?, t: UInt64, context: RunContext) -> Anomaly? {
        if let unsaved = change.unsaved, !unsaved.isEmpty { return lost(unsaved, change, process: process, step: step, t: t, context: context) }
        guard change.state == .suspended, change.holdsLock == true else { return nil }
        let lock = change.lock?.rawValue ?? "transaction"
        let store = context.store(of: process).map { " on \($0)" } ?? ""
        return context.anomaly(
            .lockHeldWhileSuspended, process: process, step: step, t: t, seen: "suspended holding \(lock)",
            expected: "no transaction open when suspended",
            explanation: "\(process) was suspended at \(context.at(t)) holding a \(lock) transaction open\(store); iOS would kill it with 0xdead10cc, and "
                + (change.lock == .pinnedRead
                    ? "meanwhile no checkpoint can reset the -wal past its snapshot (writers still commit: WAL readers block no writer)."
                    : "other processes wait on the lock."))
    }

    /// `unsaved-changes-lost`: the process ended (exited, or was terminated) with changes no save committed.
    private static func lost(_ unsaved: [String], _ change: LifecycleChange, process: String, step: Int?, t: UInt64,
                             context: RunContext) -> Anomaly {
        let how = change.state == .terminated ? "was terminated" : "exited"
        let objects = unsaved.prefix(5).joined(separator: ", ") + (unsaved.count > 5 ? " and \(unsaved.count - 5) more" : "")
        return context.anomaly(
            .unsavedChangesLost, process: process, step: step, t: t, seen: "ended with unsaved changes to \(objects)",
            expected: "every change saved before the process ends",
            explanation: "\(process) \(how) at \(context.at(t)) with changes to \(objects) that no save had committed; they ended with it, "
                + "and no other process will ever see them; save() before the work ends (SwiftData autosaves only on its timer "
                + "and at lifecycle events, and never a context made by hand).")
    }
}

extension LifecycleChecker: TraceJudge {
    static var sees: EventKinds { .lifecycle }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        guard case .lifecycle(let change) = event.kind,
              let anomaly = Self.check(change, process: event.process, step: event.step, t: event.t, context: context) else { return }
        findings.anomalies.append(anomaly)
    }
}
