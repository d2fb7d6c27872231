import Basics
import ScenarioModel
import Trace

/// One thing the runner asks an agent to do: a scenario action, or a harness request.
///
/// Travels as one JSON line on the agent's stdin. Scenario ids (`n1`) appear here; the agent maps
/// them to its store's object IDs and SharedStore never sees them.
public enum AgentCommand: Sendable, Hashable, Codable {
    // Objects and contexts.
    case insert(entity: String, id: String, values: TraceValues)
    case update(id: String, values: TraceValues)
    case delete(id: String)
    /// Sets the boolean `property` of `id` to the opposite of what this context holds (reaching the object
    /// by id, its fault firing by the staleness rules), as `object.flag.toggle()` does.
    case toggle(id: String, property: String)
    case relate(id: String, to: String, via: String, at: Int? = nil)
    case unrelate(id: String, from: String, via: String)
    case save
    /// A SwiftData main context's autosave: the view context saves when it has changes (recorded as an
    /// `autosave` commit), and does nothing when it has none.
    case autosave
    case rollback
    case reset
    case fetch(entity: String, predicate: FetchPredicate?, sort: [SortKey], options: FetchOptions = FetchOptions())
    case refreshAll
    case refreshObject(id: String, merge: Bool)
    case runRefresh
    case batchInsert(entity: String, count: Int, values: TraceValues)
    case batchUpdate(entity: String, predicate: FetchPredicate?, values: TraceValues)
    case batchDelete(entity: String, predicate: FetchPredicate?)
    /// Pin the step's context to the current generation, or to the one the named context (`view`, or a
    /// background context) is pinned to.
    case pinGeneration(from: String?)
    case unpinGeneration
    case beginWrite
    case endWrite
    // History.
    case mergeHistory
    case purgeHistory(policy: PurgePolicy?, expectDeleted: Int? = nil)
    // Notifications.
    case post(name: String)
    case observe
    // Files.
    case checkpoint
    case copyStore(name: String, withWAL: Bool)
    case openCopy(name: String)
    // Sync.
    case sync
    case leech
    // Checks. `withinNanos` 0 reads once.
    /// `absent`: the read expects the object not to be in the view.
    case read(id: String, expect: TraceValues?, absent: Bool, withinNanos: UInt64, workload: Bool, related: [String: [String]]? = nil)
    case count(entity: String, predicate: FetchPredicate?, expect: Int?, withinNanos: UInt64)
    /// What the fetched-results controller `controller` holds, and its delegate calls.
    case results(controller: String, expect: ResultsExpectation, withinNanos: UInt64)
    /// The object's `fault`, `deleted` and `registered` flags (those given) in the context, without firing it.
    case state(id: String, expect: TraceValues, withinNanos: UInt64)
    // Lifecycle seen from inside the process.
    case becomeActive
    case enterBackground
    // Harness requests.
    /// Kill-point: the next save stops after its statements, before COMMIT, says so, and waits to be killed.
    case armCrashDuringSave
    /// Moves the simulated wall clock forward (no reply: a suspended agent applies it on resume).
    case advanceClock(nanos: UInt64)
    /// Whether the process holds a transaction open on a shared store (asked before SIGSTOP).
    case lockState
    /// Deterministic mode: the poll interval has passed in virtual time; run the strategy (reason `poll`).
    case timerRefresh
    /// Nothing but the notifications delivered so far (those the request carries, in the deterministic mode).
    case handleNotifications
    /// Deterministic mode: nothing but a refresh's write that waits for another process's lock, tried again
    /// (it yields again while the lock is held, or fails with `busy` under `LockWaitHandling.fail`).
    case awaitLock
    /// Deterministic mode: commits the write a command sent with `AgentRequest.holdsCommit` left open.
    case commitHeld
    /// Runs the refresh strategy one last time (reason `final`) and records the view.
    case finalRefresh
    /// Records the view as it is, with no last refresh: a widget shows what its last reload rendered.
    case finalView
    /// Closes the store and exits with status 0.
    case exit
}

extension AgentCommand {
    /// Whether a command that met another process's lock changed nothing before it did, so it can be
    /// asked again once the lock may be free (the deterministic mode's lock waits): those that take the
    /// write lock first, or a checkpoint, which waits for readers before it writes anything.
    public var yieldsOnLockWait: Bool {
        switch self {
        case .save, .autosave, .batchInsert, .batchUpdate, .batchDelete, .beginWrite, .purgeHistory, .checkpoint: true
        default: false
        }
    }

    /// Whether the command is a write the deterministic mode keeps open for its cost among the children of
    /// `parallel` when asked (`AgentRequest.holdsCommit`): a save, a batch operation, a purge.
    public var mayHoldItsCommit: Bool {
        switch self {
        case .save, .autosave, .batchInsert, .batchUpdate, .batchDelete, .purgeHistory: true
        default: false
        }
    }

    /// Whether the command is a check that may be asked again until its deadline (`within`), and that deadline.
    public var checkWithin: UInt64? {
        switch self {
        case .read(_, _, _, let within, _, _), .count(_, _, _, let within), .state(_, _, let within), .results(_, _, let within): within
        default: nil
        }
    }
}
