/// What a refresh did: a process's refresh strategy, or one of the steps that refresh by hand.
public enum RefreshKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The strategy `none` (automatic merging, which never covers another process).
    case none
    /// The strategy `staleness`: `refreshAllObjects()`.
    case staleness
    /// The strategy `history`: merge persistent history, then purge by the setting.
    case history
    /// The strategy `refetch`.
    case refetch
    /// The strategy `new-context` (SwiftData): the fetches re-run, each in a new context.
    case newContext = "new-context"
    /// The strategy `history-observer` (SwiftData): history read after the token; the fetches re-run,
    /// each in a new context, when it holds a change of an observed model.
    case historyObserver = "history-observer"
    /// A `refresh` step: `refreshAllObjects()` whatever the strategy.
    case refreshAll = "refresh-all"
    /// A `{ refresh: x }` step.
    case refreshObject = "refresh-object"
    /// A `merge-history` step.
    case mergeHistory = "merge-history"
    /// A `sync` or `leech`.
    case sync

    /// The kind a strategy's refresh is recorded as.
    public init(_ strategy: RefreshStrategy) {
        switch strategy {
        case .none: self = .none
        case .staleness: self = .staleness
        case .history: self = .history
        case .refetch: self = .refetch
        case .newContext: self = .newContext
        case .historyObserver: self = .historyObserver
        }
    }
}

/// Why a refresh ran.
public enum RefreshReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The cross-process save notification (`trigger: darwin`).
    case darwin
    /// The process became active (`trigger: activation`).
    case activation
    /// Its poll interval passed (`trigger: poll`).
    case poll
    /// The store's remote-change notification (`trigger: remote-change`).
    case remoteChange = "remote-change"
    /// A `run-refresh` step.
    case manual
    /// A step that refreshes by itself (`refresh`, `merge-history`, `sync`).
    case step
    /// An `observe` step of a process with `refresh: history` catching up.
    case observe
    /// A `leech`.
    case leech
    /// The harness's last refresh before judging the end (never the strategy's own).
    case final
}
