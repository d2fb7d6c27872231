import SharedStore

/// Which object each scenario id names in this process's store, both ways.
///
/// The runner teaches an agent the ids other processes committed (`AgentRequest.ids`); the agent
/// learns its own inserts at insert time (a temporary ID) and at save (the permanent one).
struct ObjectIdentities {
    private(set) var byName: [String: ObjectID] = [:]
    private var names: [ObjectID: String] = [:]

    subscript(name: String) -> ObjectID? { byName[name] }

    /// Binds `name` to `id`, replacing any earlier binding of either.
    mutating func bind(_ name: String, to id: ObjectID) {
        if let old = byName[name] { names[old] = nil }
        byName[name] = id
        names[id] = name
    }

    /// Names a further row `name` without rebinding it (a duplicate of a scenario object, imported
    /// from a peer store): the trace calls both rows by the scenario's name.
    mutating func alias(_ name: String, to id: ObjectID) {
        if names[id] == nil { names[id] = name }
    }

    /// After a save: the temporary IDs are replaced by permanent ones.
    mutating func makePermanent(_ mapping: [ObjectID: ObjectID]) {
        for (temporary, permanent) in mapping {
            guard let name = names.removeValue(forKey: temporary) else { continue }
            byName[name] = permanent
            names[permanent] = name
        }
    }

    /// Forgets unsaved inserts (after a rollback or reset).
    mutating func forgetTemporary() {
        for (name, id) in byName where id.isTemporary {
            byName[name] = nil
            names[id] = nil
        }
    }

    /// The scenario's name for `id`, or `Entity#pk` for rows the scenario never named.
    func name(of id: ObjectID) -> String {
        names[id] ?? "\(id.entity)#\(id.primaryKey)"
    }
}
