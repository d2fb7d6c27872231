import Basics

/// The sync engine's side tables, kept in the store file itself so they commit with the data they describe.
///
/// - `GROUPSIM_SYNCOBJECT`: (entity, `Z_PK`) <-> global identifier, for every object exported or imported once.
/// - `GROUPSIM_SYNCSTAMP`: per object and property, the stamp (time, store) of the value the store holds; for
///   many-to-many relationships also the exported value, to tell a real change from a touch.
/// - `GROUPSIM_SYNCTOMBSTONE`: global identifiers deleted anywhere in the ensemble (a delete is final).
/// - `GROUPSIM_SYNCAPPLIED`: the peers' change-set files already applied (idempotent import).
/// - `GROUPSIM_SYNCOUTBOX`: exported change sets committed but not yet written to the transfer service.
/// - `GROUPSIM_SYNCPENDINGREF`: relationship targets imported before their object arrived (a third store's file
///   not visible yet): resolved by a later import, and still exported as part of the value meanwhile.
/// - `GROUPSIM_SYNC_<TABLE>_<COLUMN>_INDEX`: an index on each entity's identifying `uuid` column.
/// - `GROUPSIM_META` keys `sync.store` (this store's ensemble identifier: it has leeched), `sync.sequence`
///   (its last export number), `sync.exportToken` (the history token exported through).
enum SyncSchema {
    static let storeKey = "sync.store"
    static let sequenceKey = "sync.sequence"
    static let exportTokenKey = "sync.exportToken"

    /// Creates the side tables, and an index on each entity's identifying `uuid` column (import looks
    /// objects up by it).
    static func create(_ db: SQLiteConnection, model: Model) throws(SQLiteError) {
        try create(db)
        let syncModel = SyncModel(model)
        for entity in model.entities {
            guard let slot = syncModel.uuidSlot[entity.index] else { continue }
            let column = entity.slots[slot].column
            try db.execute("CREATE INDEX IF NOT EXISTS GROUPSIM_SYNC_\(entity.tableName)_\(column)_INDEX ON \(entity.tableName) (\(column))")
        }
    }

    static func create(_ db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCOBJECT (ZENT INTEGER NOT NULL, ZPK INTEGER NOT NULL, ZGID VARCHAR NOT NULL,
                PRIMARY KEY (ZENT, ZPK));
            CREATE UNIQUE INDEX IF NOT EXISTS GROUPSIM_SYNCOBJECT_ZGID_INDEX ON GROUPSIM_SYNCOBJECT (ZENT, ZGID);
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCSTAMP (ZENT INTEGER NOT NULL, ZGID VARCHAR NOT NULL, ZPROPERTY VARCHAR NOT NULL,
                ZTIME FLOAT NOT NULL, ZSTORE VARCHAR NOT NULL, ZVALUE VARCHAR, PRIMARY KEY (ZENT, ZGID, ZPROPERTY));
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCTOMBSTONE (ZENT INTEGER NOT NULL, ZGID VARCHAR NOT NULL, ZTIME FLOAT,
                ZSTORE VARCHAR, PRIMARY KEY (ZENT, ZGID));
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCAPPLIED (ZNAME VARCHAR PRIMARY KEY, ZSTORE VARCHAR, ZSEQUENCE INTEGER,
                ZAPPLIEDAT FLOAT);
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCOUTBOX (ZNAME VARCHAR PRIMARY KEY, ZDATA VARCHAR NOT NULL);
            CREATE TABLE IF NOT EXISTS GROUPSIM_SYNCPENDINGREF (ZENT INTEGER NOT NULL, ZPK INTEGER NOT NULL,
                ZPROPERTY VARCHAR NOT NULL, ZTARGET VARCHAR NOT NULL, PRIMARY KEY (ZENT, ZPK, ZPROPERTY, ZTARGET));
            """)
    }
}

/// One property a change set carries.
struct SyncProperty {
    enum Kind {
        case attribute(slot: Int, type: AttributeType)
        /// A to-one relationship's foreign key.
        case toOne(slot: Int, destination: Int)
        /// A many-to-many relationship, carried by one side of its join table only.
        case joinTable(table: String, owner: String, target: String, destination: Int)
    }
    let name: String
    let kind: Kind
}

/// What sync carries for each entity of a model: attributes, to-one foreign keys, and one side of each
/// join table (a to-many whose inverse is a to-one travels as that to-one).
struct SyncModel {
    let properties: [[SyncProperty]]
    let propertyIndex: [[String: Int]]
    /// Each entity's identifying attribute: its first `uuid` attribute's slot, if any.
    let uuidSlot: [Int?]

    init(_ model: Model) {
        var seenTables: Set<String> = []
        var properties: [[SyncProperty]] = []
        var uuidSlot: [Int?] = []
        for entity in model.entities {
            var list: [SyncProperty] = []
            for (slot, attribute) in entity.attributes.enumerated() {
                list.append(SyncProperty(name: attribute.name, kind: .attribute(slot: slot, type: attribute.type)))
            }
            uuidSlot.append(entity.attributes.firstIndex { $0.type == .uuid })
            for relationship in entity.relationships {
                switch relationship.storage {
                case .foreignKey(let slot):
                    list.append(SyncProperty(name: relationship.name,
                                             kind: .toOne(slot: slot, destination: relationship.destination)))
                case .inverseForeignKey:
                    continue
                case .joinTable(let table, let owner, let target):
                    guard seenTables.insert(table).inserted else { continue }
                    list.append(SyncProperty(name: relationship.name, kind: .joinTable(
                        table: table, owner: owner, target: target, destination: relationship.destination)))
                }
            }
            properties.append(list)
        }
        self.properties = properties
        self.propertyIndex = properties.map { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1.name, $0) }) }
        self.uuidSlot = uuidSlot
    }

    func property(_ entity: Int, _ name: String) -> SyncProperty? {
        propertyIndex[entity][name].map { properties[entity][$0] }
    }
}
