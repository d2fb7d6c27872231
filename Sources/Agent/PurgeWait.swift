import Basics

/// A history refresh's purge that met another process's lock and waits for it (the deterministic mode,
/// inside `parallel`), and what the process was asked to do meanwhile.
///
/// In real time the process is then inside SQLite's busy handler: it reads neither its timer nor its
/// requests, and takes them up once the wait is over, in the order asked. Here the purge is tried again
/// before the next request that may wait (`AgentProcess.retryPendingPurge()`), and what was postponed is
/// taken up after it (`AgentProcess.resumeAfterPurge()`). A value, tested on its own, as `HeldWrite` is.
struct PurgeWait: Equatable {
    /// The error a step expects, and that step (the trace's index).
    struct Expectation: Equatable {
        var kind: ErrorKind
        var step: Int?
    }

    /// Whether a purge waits for a lock.
    private(set) var isPending = false
    /// The error the step whose refresh left the purge waiting expects: the purge's outcome decides it.
    private(set) var expectation: Expectation?
    private var postponed: [DeferredWork] = []

    /// A purge met the lock and waits, deciding `expectation` when it ends.
    mutating func begin(deciding expectation: Expectation?) {
        isPending = true
        self.expectation = expectation
    }

    /// The purge succeeded or failed: no purge waits. Returns the expectation it decides.
    @discardableResult
    mutating func end() -> Expectation? {
        defer {
            isPending = false
            expectation = nil
        }
        return expectation
    }

    /// Work asked for while the purge waits, taken up after it in the order asked. A refresh asked again
    /// before it ran is done once, as a run loop's timer fires once for the fires it missed.
    mutating func postpone(_ work: DeferredWork) {
        if case .refresh = work, postponed.contains(work) { return }
        postponed.append(work)
    }

    /// The next work postponed, once no purge waits (nil while one does, or when nothing is left).
    mutating func nextPostponed() -> DeferredWork? {
        guard !isPending, !postponed.isEmpty else { return nil }
        return postponed.removeFirst()
    }
}

/// Work a process takes up once the purge it waits in (`PurgeWait`) is over.
enum DeferredWork: Equatable {
    /// A refresh a timer or an activation asked for.
    case refresh(RefreshReason)
    /// A `clock: advance`: the purge's cutoff was taken on the clock before it.
    case advanceClock(nanos: UInt64)
}
