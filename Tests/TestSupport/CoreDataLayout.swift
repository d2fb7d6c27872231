import Foundation

/// SQL for fixtures in Core Data's layout, written from Docs/SharedStore.md ("The file"): the tables every
/// store has, the history tables, and a `Z_METADATA` row holding a binary property list.
public enum CoreDataLayout {
    /// `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`, empty.
    public static let storeTables = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        """

    /// `ATRANSACTION`, `ACHANGE` and `ATRANSACTIONSTRING` with its unique index, empty.
    public static let historyTables = """
        CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
          ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
          ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
        CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
          ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
        CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
        """

    /// The `Z_METADATA` row of a store Core Data wrote: `identifier`, and a binary property list with
    /// framework version 1344 and a made-up 32-byte hash for each of `entities` (Core Data's own hashes,
    /// which SharedStore cannot compute).
    public static func metadataRow(identifier: String, entities: [String]) throws -> String {
        let hashes = Dictionary(uniqueKeysWithValues: entities.map { ($0, Data(repeating: 7, count: 32)) })
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""], "_NSAutoVacuumLevel": "2",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        return "INSERT INTO Z_METADATA VALUES (1, '\(identifier)', X'\(data.map { String(format: "%02X", $0) }.joined())');"
    }
}
