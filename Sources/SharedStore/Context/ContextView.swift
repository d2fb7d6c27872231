/// What a screen shows for one context: the lists its fetches returned (as fetched-results controllers
/// hold them), plus the objects it inserted, reached by ID, or merged in; minus what it deleted or merged
/// as deleted. Kept apart from the registered objects, and read without SQL.
struct ContextView {
    private(set) var lists: [String: [ObjectID]] = [:]
    private(set) var listOrder: [String] = []
    private(set) var extras: [ObjectID] = []
    /// The permanent IDs in `extras`, for membership; `nil` when stale (rebuilt on the next membership
    /// question: a save of many inserts makes them all permanent, and hashing each there would cost more
    /// than the rest of re-keying it). Temporary IDs (unsaved inserts) are never hashed: each is added
    /// once, by the insert that made it (`addInserted`), and becomes permanent at the save.
    private var savedExtrasIndex: Set<ObjectID>? = []

    /// Every ID the lists hold, for membership; `nil` when stale (rebuilt on the next membership question).
    /// Without it each question walked every list: a final view checking a fetch of 20,000 rows against
    /// the view asked 20,000 times, 400 million comparisons (over 15 s in a debug build).
    private var listedIndex: Set<ObjectID>? = []

    /// `listedIndex`, rebuilt first when stale.
    private var listed: Set<ObjectID> {
        mutating get {
            if listedIndex == nil { listedIndex = Set(lists.values.joined()) }
            return listedIndex!
        }
    }

    /// `savedExtrasIndex`, rebuilt first when stale.
    private var savedExtras: Set<ObjectID> {
        mutating get {
            if savedExtrasIndex == nil { savedExtrasIndex = Set(extras.lazy.filter { !$0.isTemporary }) }
            return savedExtrasIndex!
        }
    }

    /// Replaces (or adds) the list of the fetch identified by `key`.
    mutating func setList(_ key: String, _ ids: [ObjectID]) {
        if lists.updateValue(ids, forKey: key) == nil { listOrder.append(key) }
        listedIndex = nil
    }

    /// Adds an object outside any fetch list (reached by ID, merged insert).
    mutating func add(_ id: ObjectID) {
        if id.isTemporary {
            if !extras.contains(id) { extras.append(id) }
        } else {
            _ = savedExtras  // rebuilds a stale index
            if savedExtrasIndex!.insert(id).inserted { extras.append(id) }
        }
    }

    /// Adds an object just inserted: its temporary ID is new, so it cannot be shown already.
    mutating func addInserted(_ id: ObjectID) {
        assert(id.isTemporary)
        extras.append(id)
    }

    /// A fetch of an entity takes over the objects of it and its sub-entities (`entities`) shown outside
    /// lists, except `keeping` (unsaved inserts): a refetch shows what the store holds.
    mutating func removeExtras(entities: [String], keeping: Set<ObjectID>) {
        guard extras.contains(where: { entities.contains($0.entity) && !keeping.contains($0) }) else { return }
        extras.removeAll { entities.contains($0.entity) && !keeping.contains($0) }
        savedExtrasIndex = nil
    }

    /// Takes `ids` (saved objects) out of the objects shown outside lists; the lists keep what they hold.
    mutating func removeExtras(_ ids: Set<ObjectID>) {
        guard !savedExtras.isDisjoint(with: ids) else { return }
        extras.removeAll { ids.contains($0) }
        savedExtrasIndex?.subtract(ids)
    }

    mutating func remove(_ ids: Set<ObjectID>) {
        guard !ids.isEmpty else { return }
        for key in listOrder { lists[key]!.removeAll { ids.contains($0) } }
        // Taken out of every list, so out of the lists' index too.
        listedIndex?.subtract(ids)
        if ids.contains(where: \.isTemporary) || !savedExtras.isDisjoint(with: ids) {
            extras.removeAll { ids.contains($0) }
            savedExtrasIndex?.subtract(ids)
        }
    }

    /// Replaces the temporary IDs of objects a save inserted by their permanent IDs.
    /// - Parameter keys: temporary primary key -> permanent primary key.
    mutating func remap(_ keys: TemporaryKeyMap) {
        guard !keys.isEmpty else { return }
        // Lists and extras hold inserts in insertion order, as `keys` does: walk it along.
        var hint = 0
        func permanent(_ id: ObjectID) -> ObjectID? {
            guard id.isTemporary, let key = keys.permanentKey(id.primaryKey, hint: &hint) else { return nil }
            return ObjectID(entity: id.entity, primaryKey: key, store: id.store)
        }
        for key in listOrder where lists[key]!.contains(where: \.isTemporary) {
            lists[key] = lists[key]!.map { permanent($0) ?? $0 }
            listedIndex = nil
        }
        for i in extras.indices {
            if let id = permanent(extras[i]) {
                extras[i] = id
                savedExtrasIndex = nil
            }
        }
    }

    mutating func clear() {
        self = ContextView()
    }

    /// Every object shown of `entities` (all when nil), in list order then extras, without duplicates,
    /// minus `hidden`.
    func objects(entities: [String]?, hiding hidden: Set<ObjectID>) -> [ObjectID] {
        var seen: Set<ObjectID> = []
        var result: [ObjectID] = []
        for id in listOrder.lazy.flatMap({ self.lists[$0]! }) + extras
        where (entities?.contains(id.entity) ?? true) && !hidden.contains(id) && seen.insert(id).inserted {
            result.append(id)
        }
        return result
    }

    mutating func contains(_ id: ObjectID) -> Bool {
        (id.isTemporary ? extras.contains(id) : savedExtras.contains(id)) || listed.contains(id)
    }
}
