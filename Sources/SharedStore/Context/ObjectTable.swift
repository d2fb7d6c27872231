/// A context's registered objects by ID: per entity, one `KeyTable` of saved objects keyed by primary key and
/// one of unsaved inserts keyed by their temporary (negative) key. IDs of another store or of an entity the
/// model lacks are never registered.
///
/// Unsaved inserts are kept apart because a save re-registers all of them under permanent keys at once
/// (`obtainPermanentIDs`): their table is then emptied in one step instead of by one removal per object.
struct ObjectTable {
    private let model: Model
    private let store: StoreIdentity
    private var tables: [KeyTable<ManagedObject>]
    private var temporaries: [KeyTable<ManagedObject>]

    init(model: Model, store: StoreIdentity) {
        self.model = model
        self.store = store
        tables = Array(repeating: KeyTable(), count: model.entities.count)
        temporaries = tables
    }

    private func entity(of id: ObjectID) -> Int? {
        guard id.store == store else { return nil }
        return model.index(ofEntity: id.entity)
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard let entity = entity(of: id) else { return nil }
            return self[entity: entity, id.primaryKey]
        }
        set {
            guard let entity = entity(of: id) else {
                precondition(newValue == nil, "registering \(id), which is not of this store's model")
                return
            }
            self[entity: entity, id.primaryKey] = newValue
        }
    }

    /// The object registered for `primaryKey` of the entity at `entity` (an index into `model.entities`).
    subscript(entity entity: Int, primaryKey: Int64) -> ManagedObject? {
        get { primaryKey < 0 ? temporaries[entity][primaryKey] : tables[entity][primaryKey] }
        set {
            if primaryKey < 0 {
                temporaries[entity][primaryKey] = newValue
            } else {
                tables[entity][primaryKey] = newValue
            }
        }
    }

    /// Makes room for `count` more saved objects of `entity` (before registering a large fetch or save).
    mutating func reserveCapacity(_ count: Int, entity: Int) {
        tables[entity].reserveCapacity(tables[entity].count + count)
    }

    /// Registers `object`, an unsaved insert, under its permanent `id`, as a save's obtainPermanentIDs does.
    /// Its temporary registration stays until `removeTemporaries` (a save moves all its inserts, then drops
    /// their temporary keys together).
    mutating func reregister(_ object: ManagedObject, as id: ObjectID, entity: Int) {
        object.id = id
        tables[entity][id.primaryKey] = object
    }

    /// Forgets the temporary keys `keys` of objects re-registered by `reregister`, `counts[e]` of them of
    /// the entity at `e` (temporary keys are unique across entities).
    mutating func removeTemporaries(_ keys: [Int64], counts: [Int]) {
        for (entity, count) in counts.enumerated() where count > 0 {
            if count == temporaries[entity].count {
                temporaries[entity].removeAll()
            } else {
                for key in keys { temporaries[entity].removeValue(forKey: key) }
            }
        }
    }

    /// The registered objects of the entity at `entity`.
    func values(entity: Int) -> some Sequence<ManagedObject> {
        [tables[entity].values, temporaries[entity].values].joined()
    }

    var count: Int { tables.reduce(0) { $0 + $1.count } + temporaries.reduce(0) { $0 + $1.count } }

    /// Every registered object (entity by entity, in no particular order within one).
    var values: some Sequence<ManagedObject> { model.entities.indices.lazy.flatMap { values(entity: $0) } }

    mutating func removeAll() {
        for i in tables.indices {
            tables[i].removeAll()
            temporaries[i].removeAll()
        }
    }
}
