/// A context's registered objects by ID: unsaved inserts in a list, every other object in one `KeyTable`
/// per entity keyed by primary key. IDs of another store or of an entity the model lacks are never
/// registered.
///
/// The store hands temporary keys out from -1 down, so along the list of unsaved inserts (in insertion
/// order) the keys decrease: finding one is a binary search, and a save takes them all, in order, without
/// a lookup, then re-registers each under its permanent key (`obtainPermanentIDs`) and empties the list.
/// (A hash table of the unsaved inserts cost a large share of an insert: growing it, then dropping it at
/// the save.)
struct ObjectTable {
    private let model: Model
    private let store: StoreIdentity
    private var tables: [KeyTable<ManagedObject>]
    /// Unsaved inserts (`isInserted`), in insertion order.
    private(set) var inserted: [ManagedObject] = []
    /// `inserted`'s temporary primary keys, decreasing: searched without touching the objects.
    private(set) var insertedKeys: [Int64] = []
    /// `inserted`'s entities (indices into `model.entities`), for a save to number them without touching them.
    private(set) var insertedEntities: [Int] = []

    init(model: Model, store: StoreIdentity) {
        self.model = model
        self.store = store
        tables = Array(repeating: KeyTable(), count: model.entities.count)
    }

    private func entity(of id: ObjectID) -> Int? {
        guard id.store == store else { return nil }
        return model.index(ofEntity: id.entity)
    }

    /// The position of the unsaved insert of `entity` with temporary key `key` in `inserted`.
    private func insertedIndex(_ key: Int64, entity: Int) -> Int? {
        guard key < 0, let index = TemporaryKeyMap.index(of: key, in: insertedKeys),
            insertedEntities[index] == entity
        else { return nil }
        return index
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
    /// Setting registers an object that is not an unsaved insert (those go through `appendInserted`);
    /// setting `nil` unregisters either kind.
    subscript(entity entity: Int, primaryKey: Int64) -> ManagedObject? {
        get {
            if let index = insertedIndex(primaryKey, entity: entity) { return inserted[index] }
            return tables[entity][primaryKey]
        }
        set {
            if let index = insertedIndex(primaryKey, entity: entity) {
                if let newValue {
                    inserted[index] = newValue
                } else {
                    inserted.remove(at: index)
                    insertedKeys.remove(at: index)
                    insertedEntities.remove(at: index)
                }
            } else {
                tables[entity][primaryKey] = newValue
            }
        }
    }

    /// Registers `object`, just inserted: its temporary key is the newest (lowest) one.
    mutating func appendInserted(_ object: ManagedObject) {
        let key = object.id.primaryKey
        precondition(key < 0 && (insertedKeys.last ?? 0) > key, "an insert's temporary key must be the newest")
        inserted.append(object)
        insertedKeys.append(key)
        insertedEntities.append(object.entity)
    }

    /// Registers `object`, an unsaved insert a child context's save pushed here: its temporary key may be
    /// older than this context's newest insert, so it goes where the decreasing order puts it.
    mutating func insertPushed(_ object: ManagedObject) {
        let key = object.id.primaryKey
        precondition(key < 0, "a pushed insert has a temporary key")
        var index = insertedKeys.count
        while index > 0 && insertedKeys[index - 1] < key { index -= 1 }
        inserted.insert(object, at: index)
        insertedKeys.insert(key, at: index)
        insertedEntities.insert(object.entity, at: index)
    }

    /// Makes room for `count` more saved objects of `entity` (before registering a large fetch or save).
    mutating func reserveCapacity(_ count: Int, entity: Int) {
        tables[entity].reserveCapacity(tables[entity].count + count)
    }

    /// Registers `object`, an unsaved insert, under its permanent `id`, as a save's obtainPermanentIDs does.
    /// It stays in `inserted` until `removeAllInserted()` (a save moves all its inserts, then empties it).
    mutating func reregister(_ object: ManagedObject, as id: ObjectID, entity: Int) {
        object.id = id
        tables[entity][id.primaryKey] = object
    }

    /// Forgets every unsaved insert (after a save re-registered them, or to roll them back).
    mutating func removeAllInserted() {
        inserted = []
        insertedKeys = []
        insertedEntities = []
    }

    /// The registered objects of the entity at `entity`.
    func values(entity: Int) -> some Sequence<ManagedObject> {
        Chain(first: tables[entity].values, second: inserted.lazy.filter { $0.entity == entity })
    }

    var count: Int { tables.reduce(0) { $0 + $1.count } + inserted.count }

    /// Every registered object (entity by entity, in no particular order within one).
    var values: some Sequence<ManagedObject> { model.entities.indices.lazy.flatMap { values(entity: $0) } }

    mutating func removeAll() {
        for i in tables.indices { tables[i].removeAll() }
        removeAllInserted()
    }
}

/// The elements of `first`, then those of `second`.
struct Chain<First: Sequence, Second: Sequence>: Sequence where First.Element == Second.Element {
    let first: First
    let second: Second

    struct Iterator: IteratorProtocol {
        var first: First.Iterator
        var second: Second.Iterator
        var inFirst = true

        mutating func next() -> First.Element? {
            if inFirst {
                if let element = first.next() { return element }
                inFirst = false
            }
            return second.next()
        }
    }

    func makeIterator() -> Iterator {
        Iterator(first: first.makeIterator(), second: second.makeIterator())
    }
}

/// The temporary primary keys of a save's inserts mapped to their permanent keys. The inserts come in a
/// context's insertion order, along which temporary keys decrease: a lookup is a binary search (no hash
/// table to build for a save of many objects).
struct TemporaryKeyMap {
    /// Decreasing.
    let temporary: [Int64]
    /// `permanent[i]` is the key of the insert whose temporary key is `temporary[i]`.
    let permanent: [Int64]

    init(temporary: [Int64] = [], permanent: [Int64] = []) {
        precondition(temporary.count == permanent.count)
        self.temporary = temporary
        self.permanent = permanent
    }

    var isEmpty: Bool { temporary.isEmpty }

    subscript(key: Int64) -> Int64? {
        guard key < 0, let index = Self.index(of: key, in: temporary) else { return nil }
        return permanent[index]
    }

    /// The permanent key of `key`, trying the position `hint` first and leaving `hint` after the key found:
    /// looking up the temporary keys of a list in insertion order is then a walk, not a search per key.
    func permanentKey(_ key: Int64, hint: inout Int) -> Int64? {
        guard key < 0 else { return nil }
        let index: Int
        if hint < temporary.count && temporary[hint] == key {
            index = hint
        } else if let found = Self.index(of: key, in: temporary) {
            index = found
        } else {
            return nil
        }
        hint = index + 1
        return permanent[index]
    }

    /// The position of `key` in `keys` (decreasing), by bisection.
    static func index(of key: Int64, in keys: [Int64]) -> Int? {
        keys.withUnsafeBufferPointer { keys -> Int? in
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] > key { low = middle + 1 } else { high = middle }
            }
            return low < keys.count && keys[low] == key ? low : nil
        }
    }
}
