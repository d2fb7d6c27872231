import Basics
import Foundation
import Notify
import SharedStore
import Trace

// Why this type spans several files: an agent is one thread's state (its store, view, identities, held
// write) acted on by many commands. The state that can be a value is one, tested on its own
// (`ObjectIdentities`, `CommitTimes`, `HeldWrite`, `PurgeWait`); the rest is split by concern: the command switch
// (`+Execute`), requests and replies (`+Commands`), saves, checks, refresh strategies, store commands,
// sync, opening the store and its events, model versions, the driver loop (`Loop/AgentDriver.swift`)
// and a standby agent's warm-up (`Loop/AgentWarmUp.swift`).

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
    /// Real time or the deterministic mode's, chosen once from the config.
    let world: AgentWorld
    /// The trace's clock: monotonic, or virtual in the deterministic mode.
    var time: any TimeSource { world.time }
    var clock: AgentClock { world.clock }
    var coordinator: StoreCoordinator
    var view: ObjectContext { contextOverride ?? coordinator.viewContext }
    /// The background context the running command goes through, if any (`AgentRequest.context`).
    var contextOverride: ObjectContext?
    /// This process's background contexts (steps' `context:`, App Intents run here), by name.
    var namedContexts: [String: ObjectContext] = [:]

    /// Scenario id <-> object ID in this process's store (temporary IDs until the insert is saved).
    var ids = ObjectIdentities()
    /// The bindings learned from the runner (not this process's own inserts).
    var learnedIDs: [String: ObjectID] = [:]
    /// Properties this process set since its last save, per object (its own unsaved edits).
    var dirty: [ObjectID: Set<String>] = [:]
    /// The objects a save tried and failed to commit (a conflict, busy, read-only): if the process ends
    /// with them unsaved, that failure is what lost them, reported as itself.
    var failedToSave: Set<String> = []
    /// Per context, the versions its children read the objects they saved into it from: its own save (to
    /// the store, or into its parent, which takes them on) writes changes made on those versions, whatever
    /// version it holds by then.
    var pushedBaseVersions: [ObjectIdentifier: [ObjectID: Int64]] = [:]
    /// The fetches this process ran, re-run by `refresh: refetch`.
    var fetches: [FetchRequest] = []
    /// This process's fetched-results controllers (`fetch: ..., controller: name`), by name.
    var controllers: [String: ResultsController] = [:]
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
    /// The registration for the store's remote-change notification (`trigger: remote-change`).
    var remoteChangeObserver: NotificationObserver?
    var crashArmed = false
    /// Notifications received since launch.
    var receivedNotifications = 0
    /// Set while `begin-write` holds the store's write lock: what its savepoints will commit.
    var heldWrite: HeldWrite?
    var holdsBeginWrite: Bool { heldWrite != nil }
    /// The harness's own read-only view of the store (see `inspector()`).
    var inspectorStore: StoreCoordinator?
    /// The rows the last batch operation wrote, as the store read them before its COMMIT, in its order.
    var lastBatchChanges: [CommittedChange] = []
    /// The moments of the COMMITs the current operation made.
    var commitTimes = CommitTimes()
    var nextPoll: UInt64 = 0
    /// The copy opened by `open-copy`, which later fetches and checks use.
    /// The history tokens (-1 for none) whose expiry a step expected (`expect-error: expired-token`): the
    /// same expiry met again by a later refresh (the run's final one, say) is that one, not a new anomaly.
    var acceptedExpiries: Set<Int64> = []
    var openedCopy: StoreCoordinator?
    /// The trace's name for the opened copy (`copy:<name>`), nil while reading the store itself.
    var openedCopyName: String?
    /// Whether the store did not load at launch and the process runs on an empty store of its own
    /// (`on-load-failure: in-memory`).
    var inMemoryFallback = false
    /// The store this process's commits go to, as the trace names it: the run's store, or its own
    /// in-memory one after a fallback (which no other process reads).
    var committedStoreName: String { inMemoryFallback ? "memory:\(config.process)" : config.store.traceName }
    /// This store's membership of the ensemble, made at the first `sync` or `leech`.
    var syncMember: SyncMember?
    /// The runner's scenario id -> global identifiers, as of the last `sync`/`leech` request.
    var globalIDs: [String: [String]] = [:]

    /// Whether the last `read`, `count` or `state` matched its expectation (reported in the reply).
    var lastCheckMatched: Bool?
    /// For a control: what the last `read` observed, sent back with its reply (no other process's reply
    /// carries its reads).
    var lastObservation: Observation?
    /// For a control: the objects its reads showed since its view was last recorded (a reload's work),
    /// which are all a control displays.
    var shownByReads: Set<String> = []
    /// Whether the current attempt of a check is its last (the runner asks again until its deadline).
    var isLastAttempt = true
    /// While a `within:` check waits (from its first attempt to its last), its deadline: notifications
    /// posted after it, and poll refreshes due after it, wait until the check is decided, so the last
    /// attempt sees the view as it was at the deadline however late it runs.
    var checkDeadline: UInt64?
    /// What the running command does when it meets another process's lock (`AgentRequest.lockWaits`);
    /// a refresh the request's notifications run before it does the same.
    var lockWaitHandling: LockWaitHandling?
    /// Whether the running command may yield on a lock itself (`AgentCommand.yieldsOnLockWait`).
    var commandMayYield = false
    /// A history refresh's purge that met another process's lock and yielded (the deterministic mode,
    /// inside `parallel`): it is tried again before the next request's command, which waits behind it, and
    /// what the process was asked meanwhile waits for it.
    var purgeWait = PurgeWait()
    var pendingPurge: Bool { purgeWait.isPending }
    /// The error the running step expects (`AgentRequest.expectError`).
    var expectedError: ErrorKind?
    /// Whether the running command met the error its step expects in a refresh it ran (an activation's
    /// history merge meeting an expired token), recorded rather than thrown.
    var metExpectedError = false
    /// Real time: the file holds this process's notifications until its `deliver` (`AgentRequest
    /// .notificationsHeld`, as of the last request): the run loop leaves what arrives to that step.
    var notificationsHeld = false
    /// The step `expectedError` is of (the trace's step index).
    var expectationStep: Int?
    /// The error the last read of the view met firing a fault, for the check that made it.
    var lastReadError: (any Error)?

    /// Opens the store described by `config`, posting and observing through `center`, replying
    /// through `replies`. In the deterministic mode (`config.virtualStart`) the agent's center is its
    /// world's `routedCenter` (see `spawned(config:)`), which the runner routes.
    public convenience init(config: AgentConfig, center: (any DarwinNotificationCenter)?,
                            replies: @escaping (AgentReply) -> Void) throws {
        try self.init(config: config, world: AgentWorld(config: config), center: center, replies: replies)
    }

    init(config: AgentConfig, world: AgentWorld, center: (any DarwinNotificationCenter)?,
         replies: @escaping (AgentReply) -> Void) throws {
        self.config = config
        self.replies = replies
        self.world = world
        let time = world.time
        trace = try TraceRecorder(path: config.tracePath, process: config.process, clock: { time.reading() })
        let storeURL = try? AppGroupContainers(
            root: URL(fileURLWithPath: config.store.containersRoot), groups: [config.store.group]
        ).storeURL(group: config.store.group, name: config.store.name)
        let versionBefore = config.modelVersions.isEmpty ? nil
            : storeURL.flatMap { FileManager.default.fileExists(atPath: $0.path) ? try? StoreCoordinator.modelHash(ofStoreAt: $0) : nil }
        var fellBack: String?
        do {
            coordinator = try AgentProcess.openStore(config: config, clock: world.clock, lockWaits: world.lockWaits)
        } catch {
            let failure = AgentProcess.loadFailure(error, config: config, storeURL: storeURL)
            guard config.settings.onLoadFailure == .inMemory else { throw failure }
            coordinator = try AgentProcess.openFallbackStore(config: config, clock: world.clock)
            fellBack = failure.description
        }
        if let fellBack {
            inMemoryFallback = true
            trace.record(.note("\(config.process)'s store did not load (\(fellBack)); it fell back to an empty in-memory "
                + "store, which no other process writes and which is gone when it ends"), step: nil)
        } else if let versionBefore, versionBefore != coordinator.model.versionHash {
            // The migration took the longer the more rows it rewrote (in real time, it just does).
            if let costs = config.unitCosts {
                world.time.pass(by: UnitCosts.total(coordinator.rowsMigratedAtOpen, each: costs.migratedRow))
            }
            let from = AgentProcess.versionName(ofHash: versionBefore, in: config) ?? "another model"
            trace.record(.note("\(config.process) migrated the store from \(from) to \(AgentProcess.ownVersion(config)) "
                + "(a lightweight migration, in place)"), step: nil)
        }
        self.center = center
        wireStoreEvents()
        if settings.refresh.consumesHistory && settings.historyTracking {
            try coordinator.registerHistoryConsumer(config.process)
            // A consumer that starts now takes the newest token as its own the first time it opens the store.
            if settings.historyStart == .now, coordinator.historyToken(for: config.process) == nil,
               let latest = try coordinator.latestHistoryToken() {
                try coordinator.setHistoryToken(latest, for: config.process)
            }
        }
        if settings.queryGeneration == .pinned { try view.pinQueryGeneration() }
    }

    /// Sends one reply to the runner, with the agent's time when it replied and, when the runner routes
    /// its notifications, what it posted and started or stopped observing.
    func reply(_ reply: AgentReply) {
        var reply = reply
        reply.virtualEnd = time.now
        if inMemoryFallback { reply.store = committedStoreName }
        reply.notifications = world.takeActivity()
        replies(reply)
    }

    /// Closes everything this process opened (store, copies, notification center, the closures that
    /// tie the store to this agent), so a standby agent can become another process with nothing left
    /// open from this one.
    func shutdown() {
        coordinator.eventSink = nil
        coordinator.commitObserver = nil
        coordinator.beforeCommit = nil
        if let observer { try? center?.removeObserver(observer) }
        if let remoteChangeObserver { try? center?.removeObserver(remoteChangeObserver) }
        observer = nil
        remoteChangeObserver = nil
        center?.close()
        center = nil
        closeStores()
    }

    /// Closes every connection this process has to a store (its own, a copy it opened, the harness's
    /// inspector, the ensemble's), at `exit`: the last connection to a WAL store checkpoints it as it
    /// closes, and the runner's next step must find the files as this process leaves them.
    func closeStores() {
        inspectorStore?.close()
        inspectorStore = nil
        openedCopy?.close()
        openedCopy = nil
        syncMember = nil
        namedContexts = [:]
        contextOverride = nil
        coordinator.close()
    }

    /// Hands the deliveries a request carries (the deterministic mode's) to the observers, then handles them.
    func deliver(_ notifications: [DeliveredNotification]) {
        world.deliver(notifications, to: config.process)
        handleNotifications()
    }

    /// Records a trace event stamped with the current step; `start` (and `t`) for an operation with a duration.
    func record(_ kind: TraceEventKind, start: UInt64? = nil, at t: UInt64? = nil) {
        trace.record(kind, step: currentStep, at: t, start: start)
    }
}
