import Trace

/// Finds `lock-held-while-suspended`: a process suspended with a transaction open on a shared store,
/// which iOS answers by killing it with 0xdead10cc. The runner records what it held; the idle
/// connection's standing WAL locks are not recorded as held and never count.
enum LifecycleChecker {
    static func check(_ change: LifecycleChange, process: String, step: Int?, t: UInt64, context: RunContext) -> Anomaly? {
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
}
