// The values of a process's settings, as scenario files spell them (the raw values) and every layer
// reads them: the scenario model validates them, the runner hands them to agents, agents and SharedStore
// act on them, the trace and reports name them. Defined once, here (the role, and what it decides, in
// ProcessRole.swift).

/// How the view context catches up with other processes' saves (`refresh`).
public enum RefreshStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Rely on automatic merging, which never covers another process.
    case none
    /// `refreshAllObjects()`; a fault then re-reads SQL only when the snapshot is older than `staleness`.
    case staleness
    /// Fetch persistent history after the saved token and merge it.
    case history
    /// Re-run this process's fetches, as the `refetch` setting says.
    case refetch
    /// SwiftData: a new `ModelContext` for each fetch, so fetches read the store's current values; at its
    /// trigger the process re-runs its fetches so.
    case newContext = "new-context"
    /// SwiftData (iOS 27): a `HistoryObserver` on the store's remote-change notification reads the
    /// history after its token, and when a transaction changes a model it observes (`history-entities`;
    /// every model when unset) the screen fetches again, each fetch in a new context.
    case historyObserver = "history-observer"

    /// Whether the process reads persistent history after a token it keeps in the store (`history`,
    /// `history-observer`): it registers as a history consumer, and `consumed-by-all` purges wait for it.
    public var consumesHistory: Bool {
        switch self {
        case .history, .historyObserver: true
        case .none, .staleness, .refetch, .newContext: false
        }
    }

    /// Whether a process of `framework` can use this strategy: SwiftData has no `refreshAllObjects()` or
    /// refetch options, and a new context per fetch is how SwiftData apps catch up.
    public func isAvailable(in framework: PersistenceFramework) -> Bool {
        switch self {
        case .none, .history: true
        case .staleness, .refetch: framework == .coreData
        case .newContext, .historyObserver: framework == .swiftData
        }
    }
}

/// The persistence framework a process's code uses over the shared store (`framework`).
public enum PersistenceFramework: String, Sendable, Hashable, Codable, CaseIterable {
    /// Core Data: `NSPersistentContainer`, its view context and the contexts it declares.
    case coreData = "coredata"
    /// SwiftData: a `ModelContainer` (a Core Data store underneath) and its `mainContext`, which
    /// autosaves and has no merge API.
    case swiftData = "swiftdata"

    /// The name users know it by.
    public var displayName: String {
        switch self {
        case .coreData: "Core Data"
        case .swiftData: "SwiftData"
        }
    }
}

/// When the refresh strategy runs (`trigger`).
public enum RefreshTrigger: String, Sendable, Hashable, Codable, CaseIterable {
    /// On the cross-process (Darwin) save notification.
    case darwin
    /// When the process becomes active (`foreground`).
    case activation
    /// Every `poll-interval`.
    case poll
    /// Only at `run-refresh` steps.
    case manual
    /// On Core Data's remote-change notification (`NSPersistentStoreRemoteChange`), which the store
    /// posts for every commit to it (saves, batch operations, a held write's end) whatever `notify` says.
    case remoteChange = "remote-change"
}

/// When the process registers for notifications (`observe`).
public enum ObserveTiming: String, Sendable, Hashable, Codable, CaseIterable {
    /// At launch.
    case launch
    /// Only at an `observe` step; earlier notifications are never replayed.
    case lazy
}

/// How save conflicts resolve (`merge-policy`), as Core Data's merge policies.
public enum MergePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// `NSErrorMergePolicy`: the save fails with a conflict.
    case error
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: this context's changed properties win.
    case objectTrump = "object-trump"
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: the store's values win.
    case storeTrump = "store-trump"
    /// `NSOverwriteMergePolicy`: this context's whole objects overwrite the store's.
    case overwrite
    /// `NSRollbackMergePolicy`: this context's conflicting changes are discarded.
    case rollback
}

/// How `refresh: refetch` re-runs fetches (`refetch`).
public enum RefetchMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Re-run the fetches as they are: registered objects keep their values.
    case keepRegistered = "keep-registered"
    /// With `shouldRefreshRefetchedObjects`: results take the fetched values.
    case refreshRefetched = "refresh-refetched"
    /// Reset the context, then re-run the fetches.
    case reset
}

/// What happens to notifications posted while the process is suspended (`delivery`).
public enum DeliveryPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Delivered once on resume, however many were posted (as Darwin notifications are).
    case coalesce
    /// Lost.
    case drop
    /// Every one delivered on resume, in order.
    case queue
}

/// Where a history consumer without a token starts (`history-start`).
public enum HistoryStart: String, Sendable, Hashable, Codable, CaseIterable {
    /// From the beginning: Core Data's `fetchHistory(after: nil)` returns every transaction kept.
    case all
    /// From the newest transaction when the process opens the store, as apps that store a token do
    /// on their first launch: what happened before is never merged.
    case now
}

/// Whether the view context is pinned to a query generation (`query-generation`).
public enum QueryGeneration: String, Sendable, Hashable, Codable, CaseIterable {
    /// Reads see the latest committed data.
    case unpinned
    /// Reads see the generation current when the context was pinned, until it is advanced.
    case pinned
}

/// What a history consumer does with a token saved for a store this one replaced (`foreign-token`).
public enum ForeignToken: String, Sendable, Hashable, Codable, CaseIterable {
    /// Fetch with it, as an app that keeps its token does: the fetch fails and nothing is merged, every time.
    case fail
    /// Drop it and start again (where `history-start` says), as an app that checks the store's identifier does.
    case reset
}

/// How a process's write transactions begin (`write-transactions`).
///
/// SQLite gives a transaction its snapshot at its first read and the write lock at its first write. A
/// deferred transaction that has read cannot wait for the lock: when another connection holds it, or has
/// committed since the snapshot was taken, the first write fails with `SQLITE_BUSY` at once, whatever the
/// busy timeout (the busy handler is only called for a transaction that holds nothing yet).
public enum WriteTransactions: String, Sendable, Hashable, Codable, CaseIterable {
    /// `BEGIN IMMEDIATE`: the write lock is taken first, waiting up to the busy timeout (Core Data's way).
    case immediate
    /// `BEGIN DEFERRED`: the transaction reads first and asks for the write lock at its first write.
    case deferred
}

/// What a process does when its store fails to load at launch (`on-load-failure`): busy, made with a
/// model it does not have, or needing a migration it does not run.
public enum LoadFailure: String, Sendable, Hashable, Codable, CaseIterable {
    /// Ends, as Apple's project template does (`fatalError` in `loadPersistentStores`'s handler).
    case crash
    /// Keeps running without its store and tries to load it again before each of its later steps, as an
    /// extension that leaves migrations to its app waits for it.
    case retry
    /// Falls back to an empty store of its own and runs on, as apps that catch `loadPersistentStores`'
    /// error and add an in-memory store (`NSInMemoryStoreType`) do: it shows nothing anyone committed,
    /// and what it saves there is gone when it ends (BUGS.md 28).
    case inMemory = "in-memory"
}

/// What a widget's process does when, at a reload, the store it reads is of a newer model version than
/// its own (another process migrated it after an update, while this one kept running the old version).
public enum OnNewerModel: String, Sendable, Hashable, Codable, CaseIterable {
    /// Goes on with the version it was launched with, as an extension's process that outlives an app
    /// update does (BUGS.md 29): what names a property the migration dropped fails.
    case keepRunning = "keep-running"
    /// Exits, and the system launches the updated extension for the reload, with the installed version:
    /// the fix of BUGS.md 29 (check the store's model version at each reload).
    case exit
}

/// What becomes of an extension's process once the system's work in it is over: a widget's after a
/// reload (`between-reloads`), a notification service extension's after a push (`between-pushes`).
public enum BetweenWork: String, Sendable, Hashable, Codable, CaseIterable {
    /// Suspended, and resumed for the next reload or push: its contexts, and what they hold, survive.
    case suspend
    /// Exits: the next reload or push launches it afresh.
    case exit
}

/// Which target an App Intent's code is built into (`runs-in`), which decides the process the system
/// performs it in.
public enum IntentTarget: String, Sendable, Hashable, Codable, CaseIterable {
    /// An App Intents extension (or a widget extension, for a widget's button): performed in the app when
    /// it is running and not suspended, else in the extension's process.
    case appIntentsExtension = "extension"
    /// The app target: always performed in the app's process, which the system resumes (when suspended)
    /// or launches in the background (when not running) to perform it.
    case app
}

/// Where the process's store lives (`storage`).
public enum StorageLocation: String, Sendable, Hashable, Codable, CaseIterable {
    /// The shared store in the app group's container.
    case group
    /// A store of its own (a watch app on watchOS 2 and later).
    case own
}

