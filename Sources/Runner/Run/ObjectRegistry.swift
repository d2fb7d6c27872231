import Agent

/// Which row each scenario id names in each store, as the agents' replies taught the runner: what it
/// tells every other agent of the same store, and what names rows in the final dump.
///
/// A value, so its rules are tested without processes: an id inserted again in one store while its first
/// row lives is a second row (a duplicate) and the first keeps the name; inserted again after its row was
/// deleted, the new row takes the name and the old one keeps it as an alias.
struct ObjectRegistry: Sendable {
    /// Per store: scenario id -> row, as committed.
    private(set) var rows: [String: [String: ObjectRef]] = [:]
    /// Per store: ids committed and not deleted since.
    private(set) var live: [String: Set<String>] = [:]
    /// Per store: further rows that carry a scenario id (duplicates, rows replaced by a re-insert).
    private(set) var aliases: [String: [ObjectRef: String]] = [:]
    /// Scenario id -> its ensemble-wide global identifiers, as the stores reported them at sync.
    private(set) var globalIDs: [String: [String]] = [:]

    /// Learns what one reply committed in `store`.
    mutating func learn(_ reply: AgentReply, in store: String) {
        for (name, ref) in reply.inserted.sorted(by: { $0.key < $1.key }) {
            if let first = rows[store]?[name], first != ref, live[store]?.contains(name) == true {
                aliases[store, default: [:]][ref] = name
            } else {
                if let first = rows[store]?[name], first != ref { aliases[store, default: [:]][first] = name }
                rows[store, default: [:]][name] = ref
            }
            live[store, default: []].insert(name)
        }
        for name in reply.deleted { live[store]?.remove(name) }
        for (name, global) in reply.globalIDs.sorted(by: { $0.key < $1.key }) where !(globalIDs[name] ?? []).contains(global) {
            globalIDs[name, default: []].append(global)
        }
        for (name, refs) in reply.aliases {
            for ref in refs { aliases[store, default: [:]][ref] = name }
        }
    }

    /// Every name of each row of `store` (its id, and the ids it carries as an alias).
    func names(in store: String) -> [ObjectRef: [String]] {
        var names: [ObjectRef: [String]] = [:]
        for (name, ref) in rows[store] ?? [:] { names[ref, default: []].append(name) }
        for (ref, name) in aliases[store] ?? [:] { names[ref, default: []].append(name) }
        return names
    }
}
