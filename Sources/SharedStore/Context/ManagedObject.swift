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
    /// The values as last read or committed (meaningful when not a fault), by slot.
    @exclusivity(unchecked) var values: [Value]
    /// The `Z_OPT` those values came from (0 for an unsaved insert).
    @exclusivity(unchecked) var version: Int64
    /// Pending changes by slot; kept through `refresh(mergeChanges: true)` and applied over fresh values.
    @exclusivity(unchecked) var changes: [Int: Value] = .init()
    /// A relationship changed without a slot of this object changing (its version still moves on save).
    @exclusivity(unchecked) var touched = false
    @exclusivity(unchecked) var isInserted = false
    /// Pending deletion.
    @exclusivity(unchecked) var isDeleted = false
    /// A fault whose row was gone when it fired (`shouldDeleteInaccessibleFaults`).
    @exclusivity(unchecked) var isInaccessible = false
    /// Pending join-table changes: relationship index -> destination primary keys (temporary keys allowed).
    @exclusivity(unchecked) var joinAdds: [Int: [Int64]] = .init()
    @exclusivity(unchecked) var joinRemoves: [Int: [Int64]] = .init()

    init(id: ObjectID, entity: Int, isFault: Bool, values: [Value], version: Int64) {
        self.id = id
        self.entity = entity
        self.isFault = isFault
        self.values = values
        self.version = version
    }

    /// Whether the object has changes a save would write as an update.
    var hasUpdates: Bool { !changes.isEmpty || touched || !joinAdds.isEmpty || !joinRemoves.isEmpty }

    /// The values with the pending changes on top.
    var current: [Value] {
        guard !changes.isEmpty else { return values }
        var result = values
        for (slot, value) in changes { result[slot] = value }
        return result
    }

    /// Turns the object into a fault; `keepChanges` decides whether pending changes survive.
    func makeFault(keepChanges: Bool) {
        guard !isInserted else { return }
        isFault = true
        isInaccessible = false
        if !keepChanges {
            changes.removeAll()
            touched = false
            joinAdds.removeAll()
            joinRemoves.removeAll()
        }
    }

    func clearChanges() {
        guard hasUpdates else { return }
        changes.removeAll()
        touched = false
        joinAdds.removeAll()
        joinRemoves.removeAll()
    }
}
