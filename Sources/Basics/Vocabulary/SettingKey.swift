/// A key of a process's settings as a file writes it, in the contract's order. The decoder's and explore's
/// writer's switches over it are exhaustive, so a key added here and not decoded or written fails the
/// build; before, a key listed and not decoded was accepted and ignored. Roles name the keys only they
/// take (`RoleTraits.settings`).
public enum SettingKey: String, CaseIterable, Sendable {
    case refresh, staleness, trigger
    case pollInterval = "poll-interval"
    case observe
    case mergePolicy = "merge-policy"
    case historyTracking = "history-tracking"
    case author
    case historyAuthors = "history-authors"
    case historyEntities = "history-entities"
    case historyChangeTypes = "history-change-types"
    case historyStart = "history-start"
    case purge, refetch, notify, delivery
    case queryGeneration = "query-generation"
    case busyTimeout = "busy-timeout"
    case writeTransactions = "write-transactions"
    case model, migrate
    case onLoadFailure = "on-load-failure"
    case storage, sync
    case readOnly = "read-only"
    case foreignToken = "foreign-token"
    case deleteInaccessibleFaults = "delete-inaccessible-faults"
    case automaticallyMerges = "automatically-merges"
    case contexts
    case reloadDelay = "reload-delay"
    case reloadBudget = "reload-budget"
    case betweenReloads = "between-reloads"
    case timelinePolicy = "timeline-policy"
    case onNewerModel = "on-newer-model"
    case betweenPushes = "between-pushes"
    case widgetButton = "widget-button"
    case control
    case runsIn = "runs-in"
    case framework, autosave
    case autosaveDelay = "autosave-delay"

    /// The one framework whose processes take the key, or nil when both do: SwiftData's autosave, and the
    /// Core Data APIs SwiftData does not expose (`stalenessInterval`, `shouldRefreshRefetchedObjects`,
    /// `automaticallyMergesChangesFromParent`, query generations, `shouldDeleteInaccessibleFaults`).
    public var onlyFor: PersistenceFramework? {
        switch self {
        case .autosave, .autosaveDelay: .swiftData
        case .staleness, .refetch, .automaticallyMerges, .queryGeneration, .deleteInaccessibleFaults: .coreData
        case .refresh, .trigger, .pollInterval, .observe, .mergePolicy, .historyTracking, .author, .historyAuthors,
             .historyEntities, .historyChangeTypes, .historyStart, .purge, .notify, .delivery, .busyTimeout,
             .writeTransactions, .model, .migrate, .onLoadFailure, .storage, .sync, .readOnly, .foreignToken, .contexts,
             .reloadDelay, .reloadBudget, .betweenReloads, .timelinePolicy, .onNewerModel, .betweenPushes, .widgetButton,
             .control, .runsIn, .framework:
            nil
        }
    }
}
