import Basics
import Foundation

// Why this type spans several files: it stands for NSManagedObjectContext, whose API is that wide
// (insert and edit, fetch, save, refresh and staleness, merging, query generations, keyed access,
// relationships, child contexts, the view). Each `ObjectContext+<Concern>.swift` holds one of those
// concerns over the state declared here, as Core Data's documentation groups them.

/// A managed object context (Core Data's `NSManagedObjectContext`): registered objects, faults, pending
/// changes, a view of what a screen shows, and saves.
///
/// Objects are reached by `ObjectID`; values are `[String: Value]` by attribute name, or one at a time by
/// `AttributeKey` (names looked up once, for bulk work: `insert(_:_:)`, `value(_:of:)`).
/// ```swift
/// let context = store.viewContext
/// let ids = try context.fetch(FetchRequest(entity: "Note", predicate: "rank > 2", sort: "-rank"))
/// let title = try context.values(of: ids[0])["title"]
/// try context.setValues(["title": "B"], for: ids[0])
/// try context.save()
/// ```
/// Not thread-safe: use a context on the thread that owns its store.
///
/// Its mutable stored properties are `@exclusivity(unchecked)`: Swift's dynamic exclusivity check costs
/// about 80 instructions per access of a class property, on every object inserted, saved or fired. It is
/// sound to skip because (1) a context is confined to one thread by contract (as Core Data confines a
/// context to its queue), so no two threads access it; and (2) no access on that thread overlaps another:
/// the store calls out (event sink, did-save observers, before-commit hook, clock) only between
/// statements, never while a property is being modified (`inout`, `mutating` call), so a callback that
/// re-enters the store cannot start a conflicting access. Keep it that way: never call out from inside a
/// `mutating` method of a stored property or a closure given one.
public final class ObjectContext {
    /// The context's name (`viewContext` for the view context), written in history transactions.
    public let name: String
    /// Whether this is the store's view context.
    public let isViewContext: Bool
    /// The transaction author written in history for this context's saves (`nil`: none).
    @exclusivity(unchecked) public var transactionAuthor: String?
    /// How old a cached row snapshot may be for a firing fault to use it, in seconds on the store's clock:
    /// negative (Core Data's default, -1) never expires, 0 always reads SQL.
    @exclusivity(unchecked) public var stalenessInterval: TimeInterval = -1
    /// How save conflicts resolve (Core Data's default: `.error`).
    @exclusivity(unchecked) public var mergePolicy: MergePolicy = .error
    /// Whether a fetch gives registered objects the fetched values (default `false`: they keep theirs).
    @exclusivity(unchecked) public var shouldRefreshRefetchedObjects = false
    /// Whether a fault whose row is gone fires as a deleted object with default values (default `true`)
    /// instead of throwing `StoreError.notFound`.
    @exclusivity(unchecked) public var shouldDeleteInaccessibleFaults = true
    /// Whether saves merge into this one automatically (never another process's): for a context on the
    /// coordinator, the saves of this process's other contexts on it; for a child, its parent's saves.
    @exclusivity(unchecked) public var automaticallyMergesChangesFromParent = false
    /// The context this one fetches through and saves into (Core Data's `parent`); `nil` for a context on
    /// the coordinator. See `newChildContext(name:)`.
    public let parent: ObjectContext?

    let core: StoreCore
    @exclusivity(unchecked) var objects: ObjectTable
    @exclusivity(unchecked) var deletedOrder: [ObjectID] = []
    @exclusivity(unchecked) var deletedSet: Set<ObjectID> = []
    @exclusivity(unchecked) var updatedSet: Set<ObjectID> = []
    @exclusivity(unchecked) var screen = ContextView()
    /// Whether some object here has held a fired to-many (`ManagedObject.toMany`): until one has, a save
    /// has no object's to-many to forget (and skips walking every registered object).
    @exclusivity(unchecked) var hasFiredToMany = false
    /// The query generation the context is pinned to, when pinned (see `pinQueryGeneration()`).
    @exclusivity(unchecked) var generation: GenerationPin = .unpinned
    /// Whether the objects whose changes this context processes are logged (`processedChanges`), for a
    /// fetched-results controller watching it.
    @exclusivity(unchecked) public var logsProcessedChanges = false
    /// The objects this context processed a change of since `takeProcessedChanges()`, in order, when logging.
    @exclusivity(unchecked) var changeLog: [ObjectID] = []

    init(core: StoreCore, name: String, isViewContext: Bool, parent: ObjectContext? = nil) {
        self.core = core
        self.name = name
        self.isViewContext = isViewContext
        self.parent = parent
        objects = ObjectTable(model: core.model, store: core.store)
        core.contexts.append(WeakContext(self))
    }

    /// The connection this context reads through.
    var connection: SQLiteConnection {
        if case .pinned(let held) = generation { return held.connection }
        return isViewContext ? core.reader : core.writer
    }

    // MARK: Registration

    func register(_ id: ObjectID, entity: Int) -> ManagedObject {
        if let object = objects[id] { return object }
        let object = ManagedObject(id: id, entity: entity, isFault: true, values: [], version: 0)
        objects[id] = object
        return object
    }

    func entityInfo(of id: ObjectID) throws(StoreError) -> EntityInfo {
        guard id.store == core.store else {
            throw .invalidObjectID(id, reason: "it belongs to store \(id.storeIdentifier), not \(core.storeIdentifier)")
        }
        return try core.model.entity(named: id.entity)
    }

    /// The registered object for `id`, reaching it by ID (`existingObject`) when it is not registered.
    func object(for id: ObjectID) throws(StoreError) -> ManagedObject {
        if let object = objects[id] { return object }
        _ = try existingObject(with: id)
        return objects[id]!
    }

    func markUpdated(_ object: ManagedObject) {
        if !object.isInserted && !object.isDeleted { updatedSet.insert(object.id) }
        noteChanged(object.id)
    }

    /// Logs that this context processed a change of `id` (Core Data's `NSManagedObjectContextObjectsDidChange`
    /// would name it: inserted, updated, deleted or refreshed here, or merged in).
    func noteChanged(_ id: ObjectID) {
        if logsProcessedChanges { changeLog.append(id) }
    }

    /// The objects whose changes this context processed since the last call, each once, in order: what a
    /// fetched-results controller on it is told of (its own edits, merges, refreshes, rollbacks). Empty
    /// unless `logsProcessedChanges`. A change the context never processed (another process's save it did not
    /// merge, a batch request) is not among them.
    public func takeProcessedChanges() -> [ObjectID] {
        guard !changeLog.isEmpty else { return [] }
        var seen: Set<ObjectID> = []
        let ids = changeLog.filter { seen.insert($0).inserted }
        changeLog.removeAll()
        return ids
    }

    // MARK: Changing objects

    /// Inserts a new object of `entity` with `values` over its defaults, and shows it in the view.
    /// - Returns: its temporary ID (permanent after `save()`).
    /// - Throws: `StoreError.unknownEntity`, `.unknownProperty`, `.typeMismatch`.
    @discardableResult
    public func insert(_ entity: String, values: [String: Value] = [:]) throws(StoreError) -> ObjectID {
        let info = try core.model.entity(named: entity)
        if info.family.isAbstract { throw .abstractEntity(entity) }
        var row = info.initialValues.fresh()
        for (key, value) in values {
            let slot = try info.attributeSlot(key)
            row[slot] = try checked(value, info, slot)
        }
        return insertObject(info, row)
    }

    /// Registers a new object of `info` with `row` (checked values) and shows it in the view.
    func insertObject(_ info: EntityInfo, _ row: [Value]) -> ObjectID {
        let id = core.objectID(info, core.temporaryKey())
        let object = ManagedObject(id: id, entity: info.index, isFault: false, values: row, version: 0)
        object.isInserted = true
        objects.appendInserted(object)
        screen.addInserted(id)
        noteChanged(id)
        return id
    }

    /// Sets attribute values of an object (registering it by ID when needed).
    /// - Throws: `StoreError.notFound` when the object's row is gone; `.unknownProperty`, `.typeMismatch`.
    public func setValues(_ values: [String: Value], for id: ObjectID) throws(StoreError) {
        let info = try entityInfo(of: id)
        // Every name and value is checked before any is set: a failing one leaves the object unchanged.
        var checkedValues: [(slot: Int, value: Value)] = []
        for (key, value) in values {
            let slot = try info.attributeSlot(key)
            checkedValues.append((slot, try checked(value, info, slot)))
        }
        let object = try editable(id)
        // Setting a value fires a fault first, as any property access does in Core Data: the object takes
        // its row's values (and version, the snapshot optimistic locking compares at save) now, not at save.
        if object.isFault && !object.isInserted { _ = try fired(id, info) }
        for (slot, value) in checkedValues { store(value, slot: slot, of: object) }
        markUpdated(object)
    }

    /// The registered object for `id`, to change: not pending deletion.
    func editable(_ id: ObjectID) throws(StoreError) -> ManagedObject {
        let object = try object(for: id)
        guard !object.isDeleted else { throw .notFound(id) }
        return object
    }

    /// Stores `value` (already checked) in `slot` of `object`: an insert's value, or a pending change.
    /// The caller marks the object updated.
    func store(_ value: Value, slot: Int, of object: ManagedObject) {
        if object.isInserted { object.values[slot] = value } else { object.changes[slot] = value }
    }

    /// Sets one attribute of an object.
    public func setValue(_ value: Value, forKey key: String, of id: ObjectID) throws(StoreError) {
        try setValues([key: value], for: id)
    }

    /// Marks an object deleted; it leaves the view now and the store at the next save.
    /// Deleting an unsaved insert forgets it. Its relationships' delete rules apply: the objects a
    /// cascading relationship holds are deleted with it; a nullifying one's lose it from their inverse;
    /// `deny` and `no-action` leave them as they are (a denied delete fails at save, `deniedDeletes()`).
    public func delete(_ id: ObjectID) throws(StoreError) {
        let object = try object(for: id)
        guard !object.isDeleted else { return }
        noteChanged(id)
        // What its cascading relationships hold, read before the nullify below empties their inverses.
        var cascaded: [ObjectID] = []
        for relationship in core.model.entities[object.entity].relationships where relationship.deleteRule == .cascade {
            cascaded += try relatedObjects(of: id, via: relationship.name)
        }
        if object.isInserted {
            forgetReferences(to: object)
            objects[id] = nil
            screen.remove([id])
        } else {
            try nullifyRelationships(of: object)
            object.isDeleted = true
            updatedSet.remove(id)
            deletedOrder.append(id)
            deletedSet.insert(id)
        }
        for other in cascaded where objects[other] != nil || !other.isTemporary {
            try delete(other)
        }
    }

    /// An unsaved insert is being forgotten: the objects that point at its temporary key (a to-one, a
    /// pending join-table row) lose it, as Nullify would, so no save writes a key that no row will have.
    private func forgetReferences(to inserted: ManagedObject) {
        let key = inserted.id.primaryKey
        for info in core.model.entities {
            let toOnes = (info.attributeCount..<info.slots.count).filter {
                if case .toOne(let destination) = info.slots[$0].kind { return core.model.isKind(inserted.entity, of: core.model.entities[destination]) }
                return false
            }
            let joins = info.relationships.indices.filter {
                if case .joinTable = info.relationships[$0].storage {
                    return core.model.isKind(inserted.entity, of: core.model.entities[info.relationships[$0].destination])
                }
                return false
            }
            guard !toOnes.isEmpty || !joins.isEmpty else { continue }
            for object in objects.values(entity: info.index) where object !== inserted {
                // A fault holds no values, only the pending changes a refresh kept.
                for slot in toOnes where (object.isFault ? object.changes[slot] : object.current[slot]) == .int(key) {
                    store(.null, slot: slot, of: object)
                    markUpdated(object)
                }
                for index in joins where object.joinAdds[index]?.contains(key) == true {
                    object.joinAdds[index]!.removeAll { $0 == key }
                }
            }
        }
    }

    func checked(_ value: Value, _ info: EntityInfo, _ slot: Int) throws(StoreError) -> Value {
        guard let type = info.slotTypes[slot] else { return value }
        guard let converted = value.converted(to: type) else {
            throw .typeMismatch(entity: info.name, property: info.slots[slot].name, value: value, expected: type)
        }
        return converted
    }

    // MARK: Inspecting the context

    /// Every registered object.
    public var registeredObjects: [ObjectID] { objects.values.map(\.id).sorted() }

    /// Whether `id` is registered.
    public func isRegistered(_ id: ObjectID) -> Bool { objects[id] != nil }

    /// Whether `id` is registered as a fault (its values not in memory).
    public func isFault(_ id: ObjectID) -> Bool { objects[id]?.isFault ?? true }

    /// Whether the object is deleted: pending deletion, or a fault found without its row.
    public func isDeleted(_ id: ObjectID) -> Bool {
        guard let object = objects[id] else { return false }
        return object.isDeleted || object.isInaccessible
    }

    /// Whether a save would write anything.
    public var hasChanges: Bool {
        !objects.inserted.isEmpty || !deletedOrder.isEmpty || updatedSet.contains { objects[$0]?.hasUpdates == true }
    }

    /// Objects inserted and not saved yet.
    public var insertedObjects: [ObjectID] { objects.inserted.map(\.id) }
    /// Objects with pending changes.
    public var updatedObjects: [ObjectID] { updatedSet.filter { objects[$0]?.hasUpdates == true }.sorted() }
    /// Objects pending deletion.
    public var deletedObjects: [ObjectID] { deletedOrder }

    /// The version (`Z_OPT`) the object's in-memory values came from; `nil` when unregistered or a fault.
    public func version(of id: ObjectID) -> Int64? {
        guard let object = objects[id], !object.isFault else { return nil }
        return object.version
    }

    // MARK: The view

    /// What a screen shows: every object in the view, without a SQL query.
    public var view: [ObjectID] { viewObjects(entity: nil) }

    /// The objects of `entity` and its sub-entities (all when `nil`) in the view, without a SQL query.
    public func viewObjects(entity: String?) -> [ObjectID] {
        screen.objects(entities: entity.map(core.model.kindNames(of:)), hiding: deletedSet)
    }

    /// Whether `id` is in the view.
    public func viewContains(_ id: ObjectID) -> Bool {
        !deletedSet.contains(id) && screen.contains(id)
    }
}
