import Basics
import Foundation
import Notify
import SharedStore
import Trace

// Why this type spans ten files: an agent is one thread's state (its store, view, identities, held
// write) acted on by many commands. The state that can be a value is one, tested on its own
// (`ObjectIdentities`, `CommitTimes`, `HeldWrite`); the rest is split by concern: the command switch
// (`+Execute`), requests and replies (`+Commands`), saves, checks, refresh strategies, store commands,
// sync, store events, and the driver loop (`Loop/AgentDriver.swift`).

/// One simulated app or extension: opens SharedStore in its container, executes the runner's
/// commands, runs its refresh strategy, and records what it saw.
///
/// Single-threaded by design: the driver (`run(input:)`, a `poll(2)` loop over the request stream and
/// the notification inbox) calls `handle(_:)` and `handleNotifications()` on one thread, so the store
/// (whose contexts are not thread-safe, like Core Data's) is only touched there. Its inputs are
/// injected: the requests (the driver's, or a test's calls), the notification center, and where
/// replies go; so a test drives an agent in-process, without spawning it.
public final class AgentProcess {
    let config: AgentConfig
    var settings: AgentSettings { config.settings }
    let trace: TraceRecorder
    let clock: AgentClock
    var coordinator: StoreCoordinator
    var view: ObjectContext { coordinator.viewContext }

    /// Scenario id <-> object ID in this process's store (temporary IDs until the insert is saved).
    var ids = ObjectIdentities()
    /// The bindings learned from the runner (not this process's own inserts).
    var learnedIDs: [String: ObjectID] = [:]
    /// Properties this process set since its last save, per object (its own unsaved edits).
    var dirty: [ObjectID: Set<String>] = [:]
    /// The fetches this process ran, re-run by `refresh: refetch`.
    var fetches: [FetchRequest] = []
    /// The step being executed, stamped on trace events.
    var currentStep: Int?
    var currentSeq = 0
    /// Where the last fault fired from (`cache`, `sql`, `generation`), from the store's events.
    var lastFaultSource: ReadSource?

    /// Where replies to the runner go (stdout, as one JSON line each, in a spawned agent).
    let replies: (AgentReply) -> Void
    let inbox = Inbox<NotificationDelivery>()
    var center: (any DarwinNotificationCenter)?
    var observer: NotificationObserver?
    var crashArmed = false
    /// Notifications received since launch.
    var receivedNotifications = 0
    /// Set while `begin-write` holds the store's write lock: what its savepoints will commit.
    var heldWrite: HeldWrite?
    var holdsBeginWrite: Bool { heldWrite != nil }
    /// The harness's own read-only view of the store (see `inspector()`).
    var inspectorStore: StoreCoordinator?
    /// The rows the last batch operation wrote, as the store read them before its COMMIT.
    var lastBatchChanges: [ObjectID: CommittedChange] = [:]
    /// The moments of the COMMITs the current operation made.
    var commitTimes = CommitTimes()
    var nextPoll: UInt64 = 0
    /// The copy opened by `open-copy`, which later fetches and checks use.
    var openedCopy: StoreCoordinator?
    /// The trace's name for the opened copy (`copy:<name>`), nil while reading the store itself.
    var openedCopyName: String?
    /// This store's membership of the ensemble, made at the first `sync` or `leech`.
    var ensemble: SyncEnsemble?
    /// The runner's scenario id -> global identifiers, as of the last `sync`/`leech` request.
    var globalIDs: [String: [String]] = [:]

    /// Opens the store described by `config`, posting and observing through `center`, replying
    /// through `replies`.
    public init(config: AgentConfig, center: (any DarwinNotificationCenter)?, replies: @escaping (AgentReply) -> Void) throws {
        self.config = config
        self.replies = replies
        trace = try TraceRecorder(path: config.tracePath, process: config.process)
        clock = AgentClock(offsetNanos: config.clockOffsetNanos)
        coordinator = try AgentProcess.openStore(config: config, clock: clock)
        self.center = center
        wireStoreEvents()
        if settings.refresh == .history && settings.historyTracking {
            try coordinator.registerHistoryConsumer(config.process)
        }
        if settings.queryGeneration == .pinned { try view.pinQueryGeneration() }
    }

    /// Sends one reply to the runner.
    func reply(_ reply: AgentReply) {
        replies(reply)
    }

    /// Records a trace event stamped with the current step; `start` (and `t`) for an operation with a duration.
    func record(_ kind: TraceEventKind, start: UInt64? = nil, at t: UInt64? = nil) {
        trace.record(kind, step: currentStep, at: t, start: start)
    }
}
