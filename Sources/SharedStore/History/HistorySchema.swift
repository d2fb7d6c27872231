/// Persistent history tables, in Core Data's names.
///
/// - `ATRANSACTION`: one row per save or batch operation. `Z_PK` is the token (AUTOINCREMENT, so purged
///   tokens are never reused); `ZAUTHOR`, `ZCONTEXTNAME`, `ZBUNDLEID` and `ZPROCESSID` reference
///   `ATRANSACTIONSTRING`; `ZTIMESTAMP` is seconds since 2001 on the simulated clock.
/// - `ACHANGE`: one row per object changed: `ZCHANGETYPE` (0 insert, 1 update, 2 delete), `ZENTITY`
///   (`Z_ENT`), `ZENTITYPK`, `ZTRANSACTIONID`, `ZCOLUMNS` (the updated properties, comma-separated) and
///   `ZTOMBSTONE` (a deleted object's tombstone values, JSON).
/// - `ATRANSACTIONSTRING`: the interned strings.
enum HistorySchema {
    static func create(_ db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR UNIQUE);
            CREATE TABLE IF NOT EXISTS ATRANSACTION (Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER, Z_OPT INTEGER,
                ZAUTHOR INTEGER, ZBUNDLEID INTEGER, ZCONTEXTNAME INTEGER, ZPROCESSID INTEGER, ZQUERYGEN BLOB, ZTIMESTAMP FLOAT);
            CREATE INDEX IF NOT EXISTS ATRANSACTION_ZTIMESTAMP_INDEX ON ATRANSACTION (ZTIMESTAMP);
            CREATE TABLE IF NOT EXISTS ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
                ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE VARCHAR);
            CREATE INDEX IF NOT EXISTS ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            """)
    }
}
