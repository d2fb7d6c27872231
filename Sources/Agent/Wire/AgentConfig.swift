import Basics
import ScenarioModel
import Trace

/// Everything an agent needs at launch, written by the runner as JSON into the sandbox and passed
/// by path on the agent's command line (`groupsim agent --config <path>`).
public struct AgentConfig: Sendable, Hashable, Codable {
    /// The scenario's process name (`app`, `share`, ...).
    public var process: String
    public var role: ProcessRole
    /// How many times this process has been launched before (0 for the first launch).
    public var launchCount: Int
    /// The store this process opens.
    public var store: StoreLocation
    /// The model this process opens the store with (its `model` version, or the scenario's only model).
    public var model: ModelDescription
    /// Every version of `store.models`, oldest first (empty with one model): the process can migrate from
    /// those before `settings.modelVersion`, and names a store's model by them.
    public var modelVersions: [ModelVersion] = []
    public var settings: AgentSettings
    /// The notify hub's socket path.
    public var hubSocket: String
    /// Where this agent appends its trace events.
    public var tracePath: String
    /// Root of the named store copies (`copy-store`), shared by the run.
    public var copiesDirectory: String
    /// The ensemble's transfer directory (the stand-in for the cloud file service), shared by the run.
    public var transferDirectory: String = ""
    /// Offset of the simulated wall clock from the real one at launch, in nanoseconds.
    public var clockOffsetNanos: UInt64
    /// This process's seed, derived from the run's root seed.
    public var seed: UInt64
    /// Deterministic mode: the virtual time of the launch. Nil in real time. The agent then acts only
    /// when asked, stamps its events with virtual time, posts and observes through the runner, runs no
    /// timers of its own, and meets another process's lock without waiting (the runner waits).
    public var virtualStart: UInt64?
    /// A standby agent's stderr file for this process (a spawned agent's is set at spawn).
    public var stderrPath: String?

    public init(process: String, role: ProcessRole, launchCount: Int, store: StoreLocation, model: ModelDescription, settings: AgentSettings, hubSocket: String, tracePath: String, copiesDirectory: String, transferDirectory: String = "", clockOffsetNanos: UInt64, seed: UInt64, virtualStart: UInt64? = nil) {
        self.virtualStart = virtualStart
        self.transferDirectory = transferDirectory
        self.process = process
        self.role = role
        self.launchCount = launchCount
        self.store = store
        self.model = model
        self.settings = settings
        self.hubSocket = hubSocket
        self.tracePath = tracePath
        self.copiesDirectory = copiesDirectory
        self.clockOffsetNanos = clockOffsetNanos
        self.seed = seed
    }
}

/// Where a process's store lives: its container root, app group (or own container), and name.
public struct StoreLocation: Sendable, Hashable, Codable {
    /// The directory holding the app-group containers of the run's sandbox.
    public var containersRoot: String
    /// The app-group identifier (for `storage: own`, a per-process identifier).
    public var group: String
    /// The store's file name without extension.
    public var name: String
    /// The trace's name for this store: `group:<identifier>` or `own:<process>`.
    public var traceName: String

    public init(containersRoot: String, group: String, name: String, traceName: String) {
        self.containersRoot = containersRoot
        self.group = group
        self.name = name
        self.traceName = traceName
    }
}

/// The process settings an agent acts on (the scenario's settings table, resolved for one run).
public struct AgentSettings: Sendable, Hashable, Codable {
    /// The framework the process's code uses.
    public var framework: PersistenceFramework = .coreData
    public var refresh: RefreshStrategy = .none
    /// The view context's stalenessInterval in seconds (-1: never expire).
    public var staleness: Double = -1
    public var trigger: RefreshTrigger = .darwin
    public var pollIntervalNanos: UInt64 = 100_000_000
    public var observe: ObserveTiming = .launch
    public var mergePolicy: MergePolicy = .error
    public var historyTracking: Bool = true
    /// The transaction author; nil for `author: none`.
    public var author: String?
    /// Authors merged by `refresh: history`; nil means every author but its own.
    public var historyAuthors: [String]?
    /// The entities whose changes a history merge keeps (sub-entities included); nil for all.
    public var historyEntities: [String]?
    /// The kinds of change a history merge keeps; nil for all.
    public var historyChangeTypes: [ChangeOperation]?
    /// Where this history consumer starts when it has no token yet.
    public var historyStart: HistoryStart = .all
    public var purge: PurgePolicy = .none
    public var refetch: RefetchMode = .keepRegistered
    public var notify: Bool = true
    /// Whether the view context is pinned to a query generation at launch.
    public var queryGeneration: QueryGeneration = .unpinned
    public var busyTimeoutNanos: UInt64 = 5_000_000_000
    /// `write-transactions`: how the store's write transactions begin.
    public var writeTransactions: WriteTransactions = .immediate
    /// `model`: the version of `AgentConfig.modelVersions` the process opens the store with (nil: the newest).
    public var modelVersion: String?
    /// `migrate`: whether the process migrates a store made with an earlier version.
    public var migrate: Bool = true
    /// `read-only`: open the store read-only (every save fails with `read-only`).
    public var readOnly: Bool = false
    /// `on-load-failure`: what the process does when its store does not load at launch (the runner
    /// handles `crash` and `retry`; the agent itself falls back with `in-memory`).
    public var onLoadFailure: LoadFailure = .crash
    /// `foreign-token`: what to do with a history token saved for a store this one replaced.
    public var foreignToken: ForeignToken = .fail
    /// `delete-inaccessible-faults`: the view context's `shouldDeleteInaccessibleFaults`.
    public var deleteInaccessibleFaults: Bool = true
    /// `automatically-merges`: the view context's `automaticallyMergesChangesFromParent`.
    public var automaticallyMerges: Bool = false
    /// `contexts`: the background and child contexts the process declares.
    public var contexts: [ContextDeclaration] = []
    /// The processes with `refresh: history`: whose tokens `consumed-by-all` waits for.
    public var historyConsumers: [String] = []
    /// Whether this process's store takes part in an ensemble: an own store with `sync: transfer`,
    /// or the group store when some process syncs with it.
    public var syncEnabled: Bool = false
    /// How long a change-set file takes to become visible to the other side.
    public var syncLatencyNanos: UInt64 = 0
    /// The name of the cross-process save notification.
    public var notificationName: String = "store-did-save"
    /// The name of the store's remote-change notification, posted after every commit to the store;
    /// nil when no process that opens the store asks for it (`trigger: remote-change`), as Core Data
    /// posts it only with `NSPersistentStoreRemoteChangeNotificationPostOptionKey` set.
    public var remoteChangeName: String?

    public init() {}
}
