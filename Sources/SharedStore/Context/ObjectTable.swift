/// A context's registered objects by ID: one `KeyTable` per entity, keyed by primary key (a temporary ID's
/// negative key included). IDs of another store or of an entity the model lacks are never registered.
struct ObjectTable {
    private let model: Model
    private let storeIdentifier: String
    private var tables: [KeyTable<ManagedObject>]

    init(model: Model, storeIdentifier: String) {
        self.model = model
        self.storeIdentifier = storeIdentifier
        tables = Array(repeating: KeyTable(), count: model.entities.count)
    }

    private func entity(of id: ObjectID) -> Int? {
        guard id.storeIdentifier == storeIdentifier else { return nil }
        return model.index(ofEntity: id.entity)
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard let entity = entity(of: id) else { return nil }
            return tables[entity][id.primaryKey]
        }
        set {
            guard let entity = entity(of: id) else {
                precondition(newValue == nil, "registering \(id), which is not of this store's model")
                return
            }
            tables[entity][id.primaryKey] = newValue
        }
    }

    /// The object registered for `primaryKey` of the entity at `entity` (an index into `model.entities`).
    subscript(entity entity: Int, primaryKey: Int64) -> ManagedObject? {
        get { tables[entity][primaryKey] }
        set { tables[entity][primaryKey] = newValue }
    }

    /// Makes room for `count` more objects of `entity` (before registering a large fetch or save).
    mutating func reserveCapacity(_ count: Int, entity: Int) {
        tables[entity].reserveCapacity(tables[entity].count + count)
    }

    /// Moves `object` from its current (temporary) ID to `id`, as a save's obtainPermanentIDs does.
    mutating func reregister(_ object: ManagedObject, as id: ObjectID, entity: Int) {
        tables[entity].removeValue(forKey: object.id.primaryKey)
        object.id = id
        tables[entity][id.primaryKey] = object
    }

    /// The registered objects of the entity at `entity`.
    func values(entity: Int) -> some Sequence<ManagedObject> { tables[entity].values }

    var count: Int { tables.reduce(0) { $0 + $1.count } }

    /// Every registered object (entity by entity, in no particular order within one).
    var values: some Sequence<ManagedObject> { tables.lazy.flatMap(\.values) }

    mutating func removeAll() {
        for i in tables.indices { tables[i].removeAll() }
    }
}
