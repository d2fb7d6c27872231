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
    /// `refreshes-refetched-objects:` (`shouldRefreshRefetchedObjects`, default false): true gives the
    /// objects the context already holds the values this fetch read, as a refetch normally does not.
    public var refreshesRefetchedObjects: Bool
    /// `prefetch:` (`relationshipKeyPathsForPrefetching`, default none): relationship key paths
    /// (`folder`, `folder.owner`) whose objects the fetch reads into the row cache with its results.
    public var prefetch: [String]
    /// `controller:` (default none): the fetch is the `performFetch()` of the process's fetched-results
    /// controller of this name (`NSFetchedResultsController`), made (or made again) with this request on
    /// the step's context; it then follows the changes that context processes.
    public var controller: String?
    /// `sections:` (`sectionNameKeyPath`, default none): the attribute whose value names the controller's
    /// sections.
    public var sections: String?

    /// Creates options; the defaults are Core Data's.
    public init(limit: Int? = nil, includesPendingChanges: Bool = true, returnsObjectsAsFaults: Bool = true,
                refreshesRefetchedObjects: Bool = false, prefetch: [String] = [], controller: String? = nil,
                sections: String? = nil) {
        self.limit = limit
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.refreshesRefetchedObjects = refreshesRefetchedObjects
        self.prefetch = prefetch
        self.controller = controller
        self.sections = sections
    }

    private enum CodingKeys: String, CodingKey {
        case limit, includesPendingChanges, returnsObjectsAsFaults, refreshesRefetchedObjects, prefetch, controller, sections
    }

    /// Decodes options; `refreshesRefetchedObjects` and `prefetch` may be absent (options written before
    /// they existed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(limit: try c.decodeIfPresent(Int.self, forKey: .limit),
                  includesPendingChanges: try c.decode(Bool.self, forKey: .includesPendingChanges),
                  returnsObjectsAsFaults: try c.decode(Bool.self, forKey: .returnsObjectsAsFaults),
                  refreshesRefetchedObjects: try c.decodeIfPresent(Bool.self, forKey: .refreshesRefetchedObjects) ?? false,
                  prefetch: try c.decodeIfPresent([String].self, forKey: .prefetch) ?? [],
                  controller: try c.decodeIfPresent(String.self, forKey: .controller),
                  sections: try c.decodeIfPresent(String.self, forKey: .sections))
    }

    /// Encodes options; `refreshesRefetchedObjects` and `prefetch` only when set, so other options encode
    /// as before.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(limit, forKey: .limit)
        try c.encode(includesPendingChanges, forKey: .includesPendingChanges)
        try c.encode(returnsObjectsAsFaults, forKey: .returnsObjectsAsFaults)
        if refreshesRefetchedObjects { try c.encode(true, forKey: .refreshesRefetchedObjects) }
        if !prefetch.isEmpty { try c.encode(prefetch, forKey: .prefetch) }
        try c.encodeIfPresent(controller, forKey: .controller)
        try c.encodeIfPresent(sections, forKey: .sections)
    }

    /// Whether every option has Core Data's default.
    public var isDefault: Bool { self == FetchOptions() }

    /// The keys a `fetch` step takes for them.
    public static let keys = ["limit", "includes-pending-changes", "returns-objects-as-faults", "refreshes-refetched-objects",
                              "prefetch", "controller", "sections"]
}
