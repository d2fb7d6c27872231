import Basics
import ScenarioModel
import SharedStore
import Trace

/// Everything an agent needs at launch, written by the runner as JSON into the sandbox and passed
/// by path on the agent's command line (`groupsim agent --config <path>`).
public struct AgentConfig: Sendable, Hashable, Codable {
    /// The scenario's process name (`app`, `share`, ...).
    public var process: String
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
    /// The process's role, as its settings hold it.
    public var role: ProcessRole { settings.role }
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
    /// Deterministic mode: what a migrated row and a synced object cost in virtual time. Nil in real time.
    public var unitCosts: UnitCosts?
    /// A standby agent's stderr file for this process (a spawned agent's is set at spawn).
    public var stderrPath: String?

    public init(process: String, launchCount: Int, store: StoreLocation, model: ModelDescription, settings: AgentSettings, hubSocket: String, tracePath: String, copiesDirectory: String, transferDirectory: String = "", clockOffsetNanos: UInt64, seed: UInt64, virtualStart: UInt64? = nil) {
        self.virtualStart = virtualStart
        self.transferDirectory = transferDirectory
        self.process = process
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

/// The settings an agent acts on: the process's own, as the scenario resolved them (its role's defaults,
/// its settings, a variant's overrides), read through this value as if they were its own properties
/// (`settings.refresh`), and what the run derives from every process's settings.
@dynamicMemberLookup
public struct AgentSettings: Sendable, Hashable, Codable {
    /// The process's settings, resolved once by the scenario model; the agent reads them through this
    /// value (`settings.trigger`), never from a copy.
    public var own: ProcessSettings
    /// The transaction author, resolved (`author: process-name` is the process's name); nil for `author: none`.
    public var author: String?
    /// The processes that consume persistent history (`RefreshStrategy.consumesHistory`): whose tokens
    /// `consumed-by-all` waits for.
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

    /// A process's settings, with what the run derives left at its defaults (no other consumer, no
    /// ensemble, the group's notification names).
    public init(_ own: ProcessSettings, author: String?) {
        self.own = own
        self.author = author
    }

    /// A setting of the process's own (`settings.refresh`).
    public subscript<Value>(dynamicMember path: WritableKeyPath<ProcessSettings, Value>) -> Value {
        get { own[keyPath: path] }
        set { own[keyPath: path] = newValue }
    }

    /// Whose transactions a history merge takes (`history-authors`).
    public var historyAuthorFilter: HistoryAuthorFilter {
        switch own.historyAuthors {
        case .allButOwn: .allButOwn
        case .only(let names): .authors(names)
        }
    }
}
