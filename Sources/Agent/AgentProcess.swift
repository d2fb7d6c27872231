import Basics
import Foundation
import Notify
import SharedStore
import Trace

/// One simulated app or extension: opens SharedStore in its container, executes the runner's
/// commands, runs its refresh strategy, and records what it saw.
///
/// Single-threaded by design: `run()` is a `poll(2)` loop over stdin and the notification inbox,
/// so the store (whose contexts are not thread-safe, like Core Data's) is only touched here.
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

    let input = LineReader(fd: 0)
    let output = LineWriter(fd: 1)
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

    /// Opens the store and the notification center described by `config`.
    public init(config: AgentConfig) throws {
        self.config = config
        trace = try TraceRecorder(path: config.tracePath, process: config.process)
        clock = AgentClock(offsetNanos: config.clockOffsetNanos)
        coordinator = try AgentProcess.openStore(config: config, clock: clock)
        center = try HubNotificationCenter(hubSocketPath: config.hubSocket, process: config.process)
        wireStoreEvents()
        if settings.refresh == .history && settings.historyTracking {
            try coordinator.registerHistoryConsumer(config.process)
        }
        if settings.queryGeneration == .pinned { try view.pinQueryGeneration() }
    }

    /// Runs until the runner says `exit` or closes stdin; returns the exit status.
    public func run() -> Int32 {
        if settings.observe == .launch { startObserving() }
        // An app becomes active when it launches: the activation trigger runs then too.
        if settings.trigger == .activation { runRefresh(reason: .activation) }
        reply(AgentReply(seq: 0, status: .ready))
        nextPoll = MonotonicClock.now() + settings.pollIntervalNanos
        while true {
            let ready = waitReadable([input.fd, inbox.readDescriptor], timeoutNanos: pollTimeout())
            if ready.contains(inbox.readDescriptor) { handleNotifications() }
            pollIfDue()
            guard ready.contains(input.fd) else { continue }
            for line in input.drain() where !line.isEmpty {
                guard let request = try? JSONDecoder().decode(AgentRequest.self, from: Data(line.utf8)) else {
                    trace.record(.error(ErrorRecord(kind: .other, message: "unreadable request: \(line)")))
                    continue
                }
                if case .exit = request.command {
                    reply(AgentReply(seq: request.seq, status: .ok))
                    return 0
                }
                handle(request)
            }
            if input.isClosed { return 0 }
        }
    }

    /// Writes one reply line to the runner.
    func reply(_ reply: AgentReply) {
        guard let data = try? JSONEncoder().encode(reply) else { return }
        output.write(String(decoding: data, as: UTF8.self))
    }

    /// Records a trace event stamped with the current step; `start` (and `t`) for an operation with a duration.
    func record(_ kind: TraceEventKind, start: UInt64? = nil, at t: UInt64? = nil) {
        trace.record(kind, step: currentStep, at: t, start: start)
    }
}
