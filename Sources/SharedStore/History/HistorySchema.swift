import Basics

/// Persistent history tables, as Core Data lays them out (Docs/SharedStore.md, "The file"):
///
/// - `ATRANSACTION` (`Z_ENT` 16002): one row per save or batch operation; `Z_PK` is the token, handed out
///   from `Z_PRIMARYKEY`'s `Z_MAX` as entity keys are, so a purged token is never used again. The author,
///   bundle id, context name and process id are interned: `ZAUTHORTS`, `ZBUNDLEIDTS`, `ZCONTEXTNAMETS`,
///   `ZPROCESSIDTS` hold `ATRANSACTIONSTRING` keys (NULL when unset) and the plain columns stay NULL, as
///   in the stores read; `ZTIMESTAMP` is seconds since 2001 on the simulated clock.
/// - `ACHANGE` (16001): one row per object changed: `ZCHANGETYPE` (0 insert, 1 update, 2 delete),
///   `ZENTITY` (`Z_ENT`), `ZENTITYPK`, `ZTRANSACTIONID`; `ZCOLUMNS` NULL for inserts and deletes and, for
///   an update, a bitmask of the updated properties (**GroupSim's encoding**: bit `i` of byte `i / 8` for
///   the entity's property `i`, attributes then relationships in model order; Core Data's is not
///   documented); a deleted object's preserved values in `ZTOMBSTONE0`, `ZTOMBSTONE1`... (its
///   attributes that preserve their value on deletion, in model order), as Core Data is reported to keep
///   tombstones in extra columns.
/// - `ATRANSACTIONSTRING` (16003): the interned strings, `ZNAME` unique.
enum HistorySchema {
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    /// Creates the tables, their indexes and their `Z_PRIMARYKEY` rows when missing, and the tombstone
    /// columns `model` needs; inside the caller's write transaction.
    static func create(_ db: SQLiteConnection, model: Model) throws(SQLiteError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
                ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
                ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
            CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
                ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
            CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);
            CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);
            CREATE INDEX IF NOT EXISTS Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);
            CREATE UNIQUE INDEX IF NOT EXISTS Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
            """)
        for (number, name, table) in [(changeEntity, "CHANGE", "ACHANGE"), (transactionEntity, "TRANSACTION", "ATRANSACTION"),
                                      (stringEntity, "TRANSACTIONSTRING", "ATRANSACTIONSTRING")] {
            try db.cached("""
                INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX)
                VALUES (?, ?, 0, coalesce((SELECT max(Z_PK) FROM \(table)), 0))
                """).run([.int(number), .string(name)])
        }
        let columns = try db.columns(of: "ACHANGE")
        for i in 0..<tombstoneColumns(model) where !columns.contains("ZTOMBSTONE\(i)") {
            try db.execute("ALTER TABLE ACHANGE ADD COLUMN ZTOMBSTONE\(i)")
        }
    }

    /// Whether the history tables are there with their `Z_PRIMARYKEY` rows and the tombstone columns
    /// `model` needs (reads only).
    static func isReady(_ db: SQLiteConnection, model: Model) throws(SQLiteError) -> Bool {
        guard try db.scalarInt("SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002, 16003)") == 3 else { return false }
        for table in ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"] where !(try db.tableExists(table)) { return false }
        let needed = tombstoneColumns(model)
        guard needed > 0 else { return try db.tableExists("ACHANGE") }
        return try db.columns(of: "ACHANGE").contains("ZTOMBSTONE\(needed - 1)")
    }

    /// How many tombstone columns the model's entities need: the most attributes one preserves.
    static func tombstoneColumns(_ model: Model) -> Int {
        model.entities.map { $0.attributes.filter(\.preservesValueInHistoryOnDeletion).count }.max() ?? 0
    }

    /// `ZCOLUMNS` for an update of `properties` (names) of `entity`: the bitmask over its properties.
    static func columnsMask(_ properties: [String], _ entity: EntityInfo) -> [UInt8] {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        var mask = [UInt8](repeating: 0, count: (names.count + 7) / 8)
        for property in properties {
            guard let i = names.firstIndex(of: property) else { continue }
            mask[i / 8] |= 1 << UInt8(i % 8)
        }
        return mask
    }

    /// The property names a `ZCOLUMNS` bitmask names, for `entity`.
    static func properties(inMask mask: [UInt8], _ entity: EntityInfo) -> [String] {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        return names.indices.filter { $0 / 8 < mask.count && mask[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }.map { names[$0] }
    }
}
