/// A `fetch` step's options beyond its predicate and sort, as Core Data's `NSFetchRequest` has them.
public struct FetchOptions: Sendable, Hashable, Codable {
    /// `limit:` (`fetchLimit`): at most this many results; nil for all.
    public var limit: Int?
    /// `includes-pending-changes:` (`includesPendingChanges`, default true): whether the process's
    /// unsaved inserts, edits and deletes count in the results.
    public var includesPendingChanges: Bool
    /// `returns-objects-as-faults:` (`returnsObjectsAsFaults`, default true): false fills each result
    /// with its row's values at once (from the fetch's SQL).
    public var returnsObjectsAsFaults: Bool

    /// Creates options; the defaults are Core Data's.
    public init(limit: Int? = nil, includesPendingChanges: Bool = true, returnsObjectsAsFaults: Bool = true) {
        self.limit = limit
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
    }

    /// Whether every option has Core Data's default.
    public var isDefault: Bool { self == FetchOptions() }

    /// The keys a `fetch` step takes for them.
    public static let keys = ["limit", "includes-pending-changes", "returns-objects-as-faults"]
}
