import SharedStore
import Trace

/// When this process's COMMITs ran, as the store reports them (`StoreCoordinator.commitObserver`).
///
/// An operation clears it, runs, and then reads the interval of the commits it made: from the first
/// `willCommit` (taken while the write lock is held, so it orders commits to one store) to the last
/// `didCommit`. Nil when the operation committed nothing (a savepoint inside a held write).
struct CommitTimes {
    private(set) var firstStart: UInt64?
    private(set) var lastEnd: UInt64?

    mutating func reset() {
        firstStart = nil
        lastEnd = nil
    }

    mutating func observe(_ phase: CommitPhase, at now: UInt64) {
        switch phase {
        case .willCommit: if firstStart == nil { firstStart = now }
        case .didCommit: lastEnd = now
        }
    }

    /// The interval of the commits since the last reset, when one completed.
    var interval: (start: UInt64, end: UInt64)? {
        guard let firstStart, let lastEnd, lastEnd >= firstStart else { return nil }
        return (firstStart, lastEnd)
    }
}

/// Saves and batch operations made inside `begin-write`: they ran as savepoints and become commits,
/// with their notification, only when `end-write` commits the held transaction.
struct HeldWrite {
    var commits: [SaveCommit] = []
    var outcome = CommandOutcome()
    /// Whether one of them was a save that posts the save notification.
    var notifies = false
    /// What the savepoints changed: until `end-write` commits them, still this process's own edits
    /// (properties per object, and the objects deleted), never judged as what others committed.
    var edits: [ObjectID: Set<String>] = [:]
    var deleted: Set<ObjectID> = []
    /// Rows a batch update or delete changed, history changes a purge deleted, and objects a save held for
    /// the runner wrote beyond its first, inside it: a write the runner holds (the deterministic mode)
    /// holds the lock that much longer (`AgentReply.heldRows`).
    var rows = 0
    /// Whether the runner holds this write open (a write among the children of `parallel` in the
    /// deterministic mode), not the file's own `begin-write`.
    var heldForRunner = false
    /// Whether a save inside it reached the kill point of `crash ... during: save`: the process dies at the
    /// runner's `commitHeld`, before COMMIT, having held the lock as long as the save costs.
    var crashAtCommit = false
    /// What a sync held for the runner does once its transaction is committed: merge its import into the
    /// view, record it, post its notification.
    var afterCommit: [() -> Void] = []
}
