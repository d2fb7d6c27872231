import Basics

/// Every setting of one process, fully resolved: the role's defaults, then the process's own settings,
/// then a variant's overrides.
///
/// The runner sends it to the child process as JSON, so it round-trips through `JSONEncoder`.
public struct ProcessSettings: Sendable, Hashable, Codable {
    /// The process's role (fixed per process; variants cannot change it).
    public var role: ProcessRole
    /// `framework`: Core Data or SwiftData (fixed per process, as the role is).
    public var framework: PersistenceFramework = .coreData
    /// `autosave`: for a SwiftData process, whether its main context autosaves (`autosaveEnabled`, true for
    /// `mainContext`).
    public var autosave: Bool = true
    /// `autosave-delay`: for a SwiftData process, how long after the first unsaved change the main context's
    /// autosave runs, on the simulated clock (Apple documents no interval).
    public var autosaveDelay: Duration = .seconds(1)
    /// `refresh`: how the view context catches up with other processes' saves.
    public var refresh: RefreshStrategy = .none
    /// `staleness`: the view context's stalenessInterval.
    public var staleness: Staleness = .infinite
    /// `trigger`: when the refresh strategy runs.
    public var trigger: RefreshTrigger = .darwin
    /// `poll-interval`: the period of `trigger: poll`.
    public var pollInterval: Duration = .milliseconds(100)
    /// `observe`: when the process registers for notifications.
    public var observe: ObserveTiming = .launch
    /// `merge-policy`: how save conflicts resolve.
    public var mergePolicy: MergePolicy = .error
    /// `history-tracking`: whether the process opens the store with persistent history tracking.
    public var historyTracking: Bool = true
    /// `author`: the transaction author written on save.
    public var author: TransactionAuthor = .processName
    /// `history-authors`: whose transactions `refresh: history` merges.
    public var historyAuthors: HistoryAuthors = .allButOwn
    /// `history-entities`: the entities whose changes `refresh: history` merges (sub-entities included),
    /// as a history fetch request on `NSPersistentHistoryChange.entityDescription` filters them; nil for all.
    public var historyEntities: [String]?
    /// `history-change-types`: the kinds of change `refresh: history` merges (inserts, updates, deletes),
    /// as a history fetch request with a predicate on `NSPersistentHistoryChange.changeType` keeps them;
    /// nil for all.
    public var historyChangeTypes: [ChangeOperation]?
    /// `history-start`: where a history consumer without a token starts.
    public var historyStart: HistoryStart = .all
    /// `purge`: what `purge-history` deletes.
    public var purge: PurgePolicy = .none
    /// `refetch`: how `refresh: refetch` re-runs fetches.
    public var refetch: RefetchMode = .keepRegistered
    /// `notify`: whether each save posts the cross-process save notification.
    public var notify: Bool = true
    /// `delivery`: what happens to notifications posted while suspended.
    public var delivery: DeliveryPolicy = .coalesce
    /// `query-generation`: whether the view context is pinned.
    public var queryGeneration: QueryGeneration = .unpinned
    /// `busy-timeout`: how long an operation waits on a lock before failing with `busy`.
    public var busyTimeout: Duration = .seconds(5)
    /// `write-transactions`: whether write transactions begin `immediate` (taking the lock first) or
    /// `deferred` (reading first, upgrading at the first write).
    public var writeTransactions: WriteTransactions = .immediate
    /// `model`: the version of `store.models` the process opens the store with; nil for the newest.
    public var modelVersion: String?
    /// `migrate`: whether the process migrates a store made with an earlier version (Core Data's
    /// `NSMigratePersistentStoresAutomaticallyOption`, on in `NSPersistentContainer`).
    public var migrate: Bool = true
    /// `on-load-failure`: what the process does when its store fails to load at launch.
    public var onLoadFailure: LoadFailure = .crash
    /// `storage`: the group container, or a store of its own (the default for `watch`).
    public var storage: StorageLocation
    /// `sync`: how an `own`-storage process exchanges changes with the group store.
    public var sync: SyncMode = .none
    /// `automatically-merges`: the view context's `automaticallyMergesChangesFromParent`: it takes the saves
    /// of this process's other contexts (never another process's).
    public var automaticallyMerges: Bool = false
    /// `contexts`: the background and child contexts the process declares, in file order.
    public var contexts: [ContextDeclaration] = []
    /// `delete-inaccessible-faults`: the view context's `shouldDeleteInaccessibleFaults` (a fault whose row
    /// is gone fires as a deleted object with nil values when true; fails with `not-found` when false).
    public var deleteInaccessibleFaults: Bool = true
    /// `foreign-token`: what a history consumer does with a token saved for a store this one replaced.
    public var foreignToken: ForeignToken = .fail
    /// `read-only`: whether the process opens the store read-only (a widget that only shows data).
    public var readOnly: Bool = false
    /// `reload-delay`: for a widget, how long after a `reload-timelines` request the system runs the
    /// reload, on the simulated clock.
    public var reloadDelay: Duration = .zero
    /// `reload-budget`: for a widget, how many reloads the system runs per simulated day; later
    /// requests that day are ignored.
    public var reloadBudget: Int = 40
    /// `timeline-policy`: for a widget, when the system reloads its timeline by itself after each reload,
    /// as the `TimelineReloadPolicy` its provider returns says.
    public var timelinePolicy: TimelinePolicy = .never
    /// `between-reloads`: for a widget, whether its process is suspended and reused, or exits.
    public var betweenReloads: BetweenWork = .suspend
    /// `on-newer-model`: for a widget, what its running process does when a reload finds the store of a
    /// newer model version than its own.
    public var onNewerModel: OnNewerModel = .keepRunning
    /// `between-pushes`: for a notification service extension, whether its process exits after a push or
    /// is suspended and reused for the next one, as iOS may keep an extension's process alive.
    public var betweenPushes: BetweenWork = .exit
    /// `widget-button`: for an App Intent, the widget whose button (`Button(intent:)`, `Toggle(intent:)`)
    /// runs it. WidgetKit reloads that widget's timeline as soon as the intent's `perform()` returns (here:
    /// each save of the intent), at once and outside the widget's budget. `none` (the default): run from
    /// Shortcuts, Siri or the app, which reloads nothing.
    public var widgetButton: String?
    /// `control`: for an App Intent, the Control Center control (a `control` process) whose tap runs it, as
    /// a `ControlWidgetToggle`'s or `ControlWidgetButton`'s action: the system runs it with the value the
    /// control shows (`toggle` reads it) and reloads the control as soon as the intent's `perform()`
    /// returns (here: each save of the intent). `none` (the default): not a control's action.
    public var control: String?
    /// `runs-in`: for an App Intent, the target its code is built into: `extension` (the default; the app
    /// performs it when running and not suspended, else the extension's process) or `app` (the system
    /// resumes or launches the app in the background to perform it).
    public var runsIn: IntentTarget = .appIntentsExtension

    /// For an App Intent: the widget or control whose button or toggle runs it (`widget-button`, `control`),
    /// which the system reloads when the intent's work is done and in whose process the intent runs when
    /// the app is not running.
    public var tappedIn: String? { control ?? widgetButton }

    /// Whether its refresh writes: a history merge is followed by a purge (`purge:`), which takes the
    /// write lock. The agent purges by it, and the deterministic mode weighs a handling's odds by it.
    public var purgesAfterMerge: Bool { refresh == .history && purge != .none }

    /// The defaults for a role: every setting's first listed value, and `storage: own` for `watch`; a
    /// SwiftData process's refreshes follow the store's remote-change notification, as SwiftData apps
    /// observe (`NSPersistentStoreRemoteChange`; `ModelContainer`'s own since iOS 27).
    public init(role: ProcessRole, framework: PersistenceFramework = .coreData) {
        self.role = role
        self.framework = framework
        self.storage = role.traits.storage
        if framework == .swiftData { trigger = .remoteChange }
        // A widget or a control refreshes when the system reloads it, not on notifications.
        if role.isRenderedBySystem { trigger = .manual }
    }

    /// These settings with `overrides` applied in order.
    public func applying(_ overrides: [ProcessSetting]) -> ProcessSettings {
        var settings = self
        for override in overrides {
            settings.apply(override)
        }
        return settings
    }

    /// Applies one override.
    public mutating func apply(_ setting: ProcessSetting) {
        switch setting {
        case let .refresh(value): refresh = value
        case let .staleness(value): staleness = value
        case let .trigger(value): trigger = value
        case let .pollInterval(value): pollInterval = value
        case let .observe(value): observe = value
        case let .mergePolicy(value): mergePolicy = value
        case let .historyTracking(value): historyTracking = value
        case let .author(value): author = value
        case let .historyAuthors(value): historyAuthors = value
        case let .historyEntities(value): historyEntities = value
        case let .historyChangeTypes(value): historyChangeTypes = value
        case let .historyStart(value): historyStart = value
        case let .purge(value): purge = value
        case let .refetch(value): refetch = value
        case let .notify(value): notify = value
        case let .delivery(value): delivery = value
        case let .queryGeneration(value): queryGeneration = value
        case let .busyTimeout(value): busyTimeout = value
        case let .writeTransactions(value): writeTransactions = value
        case let .modelVersion(value): modelVersion = value
        case let .migrate(value): migrate = value
        case let .onLoadFailure(value): onLoadFailure = value
        case let .storage(value): storage = value
        case let .sync(value): sync = value
        case let .readOnly(value): readOnly = value
        case let .foreignToken(value): foreignToken = value
        case let .deleteInaccessibleFaults(value): deleteInaccessibleFaults = value
        case let .automaticallyMerges(value): automaticallyMerges = value
        case let .contexts(value): contexts = value
        case let .reloadDelay(value): reloadDelay = value
        case let .reloadBudget(value): reloadBudget = value
        case let .betweenReloads(value): betweenReloads = value
        case let .onNewerModel(value): onNewerModel = value
        case let .timelinePolicy(value): timelinePolicy = value
        case let .betweenPushes(value): betweenPushes = value
        case let .widgetButton(value): widgetButton = value
        case let .control(value): control = value
        case let .runsIn(value): runsIn = value
        case let .autosave(value): autosave = value
        case let .autosaveDelay(value): autosaveDelay = value
        }
    }
}

/// One setting as a file writes it, under a process or in a variant's override of that process.
public enum ProcessSetting: Sendable, Hashable, Codable {
    case refresh(RefreshStrategy)
    case staleness(Staleness)
    case trigger(RefreshTrigger)
    case pollInterval(Duration)
    case observe(ObserveTiming)
    case mergePolicy(MergePolicy)
    case historyTracking(Bool)
    case author(TransactionAuthor)
    case historyAuthors(HistoryAuthors)
    case historyEntities([String])
    case historyChangeTypes([ChangeOperation])
    case historyStart(HistoryStart)
    case purge(PurgePolicy)
    case refetch(RefetchMode)
    case notify(Bool)
    case delivery(DeliveryPolicy)
    case queryGeneration(QueryGeneration)
    case busyTimeout(Duration)
    case writeTransactions(WriteTransactions)
    case modelVersion(String)
    case migrate(Bool)
    case onLoadFailure(LoadFailure)
    case storage(StorageLocation)
    case sync(SyncMode)
    case readOnly(Bool)
    case foreignToken(ForeignToken)
    case deleteInaccessibleFaults(Bool)
    case automaticallyMerges(Bool)
    case contexts([ContextDeclaration])
    case reloadDelay(Duration)
    case reloadBudget(Int)
    case betweenReloads(BetweenWork)
    case onNewerModel(OnNewerModel)
    case timelinePolicy(TimelinePolicy)
    case betweenPushes(BetweenWork)
    case widgetButton(String?)
    case control(String?)
    case runsIn(IntentTarget)
    case autosave(Bool)
    case autosaveDelay(Duration)

    /// Every setting key, in the contract's order (`SettingKey`).
    public static let keys = SettingKey.allCases.map(\.rawValue)
}
