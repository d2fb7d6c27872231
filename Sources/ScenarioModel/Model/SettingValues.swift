/// The part a process plays; it decides lifecycle defaults (and `storage` for the watch), not what the
/// process may do.
public enum ProcessRole: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// The containing app: long-lived; foreground, background, suspended, terminated, launched again.
    case host
    /// A share extension: short-lived, launched, does its work, exits (or is killed).
    case share
    /// An action extension: short-lived like a share extension.
    case action
    /// A watch app: long-lived on its own device, with its own storage by default.
    case watch
}

/// How the view context catches up with other processes' saves (`refresh`).
public enum RefreshStrategy: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// Rely on automatic merging, which never covers another process.
    case none
    /// `refreshAllObjects()`; a fault then re-reads SQL only when the snapshot is older than `staleness`.
    case staleness
    /// Fetch persistent history after the saved token and merge it.
    case history
    /// Re-run this process's fetches, as the `refetch` setting says.
    case refetch
}

/// When the refresh strategy runs (`trigger`).
public enum RefreshTrigger: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// On the cross-process (Darwin) save notification.
    case darwin
    /// When the process becomes active (`foreground`).
    case activation
    /// Every `poll-interval`.
    case poll
    /// Only at `run-refresh` steps.
    case manual
}

/// When the process registers for notifications (`observe`).
public enum ObserveTiming: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// At launch.
    case launch
    /// Only at an `observe` step; earlier notifications are never replayed.
    case lazy
}

/// How save conflicts resolve (`merge-policy`), as Core Data's merge policies.
public enum MergePolicy: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
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
public enum RefetchMode: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// Re-run the fetches as they are: registered objects keep their values.
    case keepRegistered = "keep-registered"
    /// With `shouldRefreshRefetchedObjects`: results take the fetched values.
    case refreshRefetched = "refresh-refetched"
    /// Reset the context, then re-run the fetches.
    case reset
}

/// What happens to notifications posted while the process is suspended (`delivery`).
public enum NotificationDelivery: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// Delivered once on resume, however many were posted (as Darwin notifications are).
    case coalesce
    /// Lost.
    case drop
    /// Every one delivered on resume, in order.
    case queue
}

/// Whether the view context is pinned to a query generation (`query-generation`).
public enum QueryGeneration: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// Reads see the latest committed data.
    case unpinned
    /// Reads see the generation current when the context was pinned, until it is advanced.
    case pinned
}

/// Where the process's store lives (`storage`).
public enum StorageLocation: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// The shared store in the app group's container.
    case group
    /// A store of its own (a watch app on watchOS 2 and later).
    case own
}

/// How an `own`-storage process exchanges changes with the group store (`sync`).
public enum SyncMode: Sendable, Hashable, Codable {
    /// No exchange at all.
    case none
    /// Change sets through a transfer directory, arriving after `latency`.
    case transfer(latency: Duration)
}

/// What `purge-history` deletes (`purge`, or the argument of a `purge-history` step).
public enum PurgePolicy: Sendable, Hashable, Codable {
    /// Nothing.
    case none
    /// Transactions before the oldest token among the processes with `refresh: history`.
    case consumedByAll
    /// Transactions before the last one this process consumed or wrote.
    case ownToken
    /// Transactions older than the simulated now minus the duration.
    case olderThan(Duration)
}

/// The transaction author written on save (`author`).
public enum TransactionAuthor: Sendable, Hashable, Codable {
    /// The process's name (the default).
    case processName
    /// This name.
    case named(String)
    /// No author at all (the missing-author bug).
    case none

    /// The author this process writes, or nil for none.
    public func resolved(processName: String) -> String? {
        switch self {
        case .processName: processName
        case let .named(name): name
        case .none: nil
        }
    }
}

/// Which authors' transactions `refresh: history` merges (`history-authors`).
public enum HistoryAuthors: Sendable, Hashable, Codable {
    /// Every author but this process's own (transactions without an author included).
    case allButOwn
    /// Only these authors (transactions without an author excluded).
    case only([String])
}

/// The view context's `stalenessInterval` (`staleness`).
public enum Staleness: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Never expire (`-1`, Core Data's default): a cached snapshot is always reused.
    case infinite
    /// Snapshots older than this are re-read; zero always re-reads.
    case interval(Duration)

    /// The value for `NSManagedObjectContext.stalenessInterval`: `-1` for infinite, else seconds.
    public var timeInterval: Double {
        switch self {
        case .infinite: -1
        case let .interval(duration): duration.seconds
        }
    }

    /// `-1`, or the interval as a duration.
    public var description: String {
        switch self {
        case .infinite: "-1"
        case let .interval(duration): duration.description
        }
    }
}
