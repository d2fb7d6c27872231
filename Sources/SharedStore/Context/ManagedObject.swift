import Basics

/// One object registered in a context: its values as last read (or a fault with none), the version they
/// came from, and its pending changes.
///
/// Owned by one context and used only on its thread: its stored properties skip the dynamic exclusivity
/// check, for the reasons given on `ObjectContext`.
final class ManagedObject {
    @exclusivity(unchecked) var id: ObjectID
    let entity: Int
    /// No values in memory: the next access fires the fault.
    @exclusivity(unchecked) var isFault: Bool
    @exclusivity(unchecked) var isInserted = false
    /// Pending deletion.
    @exclusivity(unchecked) var isDeleted = false
    /// A fault whose row was gone when it fired (`shouldDeleteInaccessibleFaults`).
    @exclusivity(unchecked) var isInaccessible = false
    /// The values as last read or committed (meaningful when not a fault), by slot.
    @exclusivity(unchecked) var values: [Value]
    /// The `Z_OPT` those values came from (0 for an unsaved insert).
    @exclusivity(unchecked) var version: Int64
    /// Fired to-many relationships: relationship index -> the destination keys as read (pending changes
    /// apply on top). Kept until the object becomes a fault, as Core Data keeps a fired to-many.
    @exclusivity(unchecked) var toMany: [Int: [Int64]]?
    /// Pending changes, boxed: most objects (every fault a fetch registers) have none, and keeping the four
    /// fields out of line makes each object 96 bytes instead of 128.
    @exclusivity(unchecked) private var pending: PendingChanges?

    init(id: ObjectID, entity: Int, isFault: Bool, values: [Value], version: Int64) {
        self.id = id
        self.entity = entity
        self.isFault = isFault
        self.values = values
        self.version = version
    }

    /// The box of pending changes, made on the first change.
    private var pendingBox: PendingChanges {
        if let pending { return pending }
        let box = PendingChanges()
        pending = box
        return box
    }

    /// Pending changes by slot; kept through `refresh(mergeChanges: true)` and applied over fresh values.
    var changes: [Int: Value] {
        get { pending?.changes ?? [:] }
        _modify { yield &pendingBox.changes }
    }

    /// A relationship changed without a slot of this object changing (its version still moves on save).
    var touched: Bool {
        get { pending?.touched ?? false }
        set { pendingBox.touched = newValue }
    }

    /// Pending join-table changes: relationship index -> destination primary keys (temporary keys allowed).
    var joinAdds: [Int: [Int64]] {
        get { pending?.joinAdds ?? [:] }
        _modify { yield &pendingBox.joinAdds }
    }

    var joinRemoves: [Int: [Int64]] {
        get { pending?.joinRemoves ?? [:] }
        _modify { yield &pendingBox.joinRemoves }
    }

    /// The order this context gave an ordered to-many (relationship index -> destination keys, temporary
    /// keys allowed); members it gained otherwise follow, and members it lost are left out when read.
    var orders: [Int: [Int64]] {
        get { pending?.orders ?? [:] }
        _modify { yield &pendingBox.orders }
    }

    /// Whether any attribute or to-one slot has a pending change (without copying `changes`).
    var hasValueChanges: Bool {
        guard let pending else { return false }
        return !pending.changes.isEmpty
    }

    /// Whether the object has changes a save would write as an update.
    var hasUpdates: Bool {
        guard let pending else { return false }
        return !pending.changes.isEmpty || pending.touched || !pending.joinAdds.isEmpty || !pending.joinRemoves.isEmpty
    }

    /// The values with the pending changes on top.
    var current: [Value] {
        guard let pending, !pending.changes.isEmpty else { return values }
        var result = values
        for (slot, value) in pending.changes { result[slot] = value }
        return result
    }

    /// Turns the object into a fault; `keepChanges` decides whether pending changes survive.
    func makeFault(keepChanges: Bool) {
        guard !isInserted else { return }
        isFault = true
        isInaccessible = false
        toMany = nil
        if !keepChanges { pending = nil }
    }

    func clearChanges() {
        pending = nil
    }
}

/// An object's pending changes (`ManagedObject.changes`, `touched`, `joinAdds`, `joinRemoves`, `orders`).
private final class PendingChanges {
    @exclusivity(unchecked) var changes: [Int: Value] = [:]
    @exclusivity(unchecked) var touched = false
    @exclusivity(unchecked) var joinAdds: [Int: [Int64]] = [:]
    @exclusivity(unchecked) var joinRemoves: [Int: [Int64]] = [:]
    @exclusivity(unchecked) var orders: [Int: [Int64]] = [:]
}
