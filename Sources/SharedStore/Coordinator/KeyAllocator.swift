/// Hands out primary keys as Core Data does: from `Z_PRIMARYKEY`'s `Z_MAX` for the entity (or the history
/// table) numbered `Z_ENT`, inside the caller's write transaction. One definition for saves, batch inserts,
/// sync imports and history rows.
enum KeyAllocator {
    /// Takes `count` keys after `Z_MAX` of `entity` and returns the first. For a family of entities
    /// sharing one table (`family`: their numbers), the keys come after the highest `Z_MAX` of the family
    /// (SharedStore keeps it on the root's row; a store written otherwise may not), and the root's row
    /// records them.
    /// - Throws: `StoreError.invalidState` when `Z_PRIMARYKEY` has no row for it, or its keys would run past
    ///   the largest 64-bit integer (a store whose `Z_MAX` was set near it); `.sqlite` otherwise.
    static func take(_ count: Int64, of entity: Int64, family: ClosedRange<Int64>? = nil, name: String,
                     _ db: SQLiteConnection) throws(StoreError) -> Int64 {
        do {
            // The common case in one statement: an entity of its own, with room for the keys (SQLite 3.35's
            // RETURNING). Anything else (a family, a missing row, keys that would overflow) takes the long way,
            // which says what is wrong.
            if family == nil, count >= 0 {
                let statement = try db.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? AND Z_MAX >= 0 AND Z_MAX <= ? RETURNING Z_MAX")
                try statement.bind([.int(count), .int(entity), .int(Int64.max - count)])
                defer { statement.reset() }
                if try statement.step(), !statement.isNull(at: 0) {
                    let last = statement.int64(at: 0)
                    while try statement.step() {}
                    return last - count + 1
                }
            }
            guard var max = try db.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.int(entity)]) else {
                throw StoreError.invalidState("Z_PRIMARYKEY has no row for \(name) (Z_ENT \(entity)): no key can be handed out")
            }
            if let family, let highest = try db.scalarInt("SELECT max(Z_MAX) FROM Z_PRIMARYKEY WHERE Z_ENT BETWEEN ? AND ?",
                                                          [.int(family.lowerBound), .int(family.upperBound)]) {
                max = Swift.max(max, highest)
            }
            let (last, overflow) = max.addingReportingOverflow(count)
            guard !overflow, max >= 0 else {
                throw StoreError.invalidState("\(name) has handed out keys up to \(max) (Z_PRIMARYKEY.Z_MAX): \(count) more would pass the largest key")
            }
            try db.cached("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?").run([.int(last), .int(entity)])
            return max + 1
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.wrap(error)
        }
    }
}
