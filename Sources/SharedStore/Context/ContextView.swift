/// What a screen shows for one context: the lists its fetches returned (as fetched-results controllers
/// hold them), plus the objects it inserted, reached by ID, or merged in; minus what it deleted or merged
/// as deleted. Kept apart from the registered objects, and read without SQL.
struct ContextView {
    private(set) var lists: [String: [ObjectID]] = [:]
    private(set) var listOrder: [String] = []
    private(set) var extras: [ObjectID] = []
    private var extrasSet: Set<ObjectID> = []

    /// Replaces (or adds) the list of the fetch identified by `key`.
    mutating func setList(_ key: String, _ ids: [ObjectID]) {
        if lists.updateValue(ids, forKey: key) == nil { listOrder.append(key) }
    }

    /// Adds an object outside any fetch list (inserted, reached by ID, merged insert).
    mutating func add(_ id: ObjectID) {
        if extrasSet.insert(id).inserted { extras.append(id) }
    }

    /// A fetch of `entity` takes over the objects of that entity shown outside lists, except `keeping`
    /// (unsaved inserts): a refetch shows what the store holds.
    mutating func removeExtras(entity: String, keeping: Set<ObjectID>) {
        guard extras.contains(where: { $0.entity == entity && !keeping.contains($0) }) else { return }
        extras.removeAll { $0.entity == entity && !keeping.contains($0) }
        extrasSet = Set(extras)
    }

    mutating func remove(_ ids: Set<ObjectID>) {
        guard !ids.isEmpty else { return }
        for key in listOrder { lists[key]!.removeAll { ids.contains($0) } }
        if !extrasSet.isDisjoint(with: ids) {
            extras.removeAll { ids.contains($0) }
            extrasSet.subtract(ids)
        }
    }

    mutating func remap(_ mapping: [ObjectID: ObjectID]) {
        guard !mapping.isEmpty else { return }
        for key in listOrder { lists[key] = lists[key]!.map { mapping[$0] ?? $0 } }
        extras = extras.map { mapping[$0] ?? $0 }
        extrasSet = Set(extras)
    }

    mutating func clear() {
        self = ContextView()
    }

    /// Every object shown, in list order then extras, without duplicates, minus `hidden`.
    func objects(entity: String?, hiding hidden: Set<ObjectID>) -> [ObjectID] {
        var seen: Set<ObjectID> = []
        var result: [ObjectID] = []
        for id in listOrder.lazy.flatMap({ self.lists[$0]! }) + extras
        where (entity == nil || id.entity == entity) && !hidden.contains(id) && seen.insert(id).inserted {
            result.append(id)
        }
        return result
    }

    func contains(_ id: ObjectID) -> Bool {
        extrasSet.contains(id) || listOrder.contains { lists[$0]!.contains(id) }
    }
}
