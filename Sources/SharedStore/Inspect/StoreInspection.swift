import Basics
import Foundation

/// What `StoreInspector` reads off a store file, Core Data's or GroupSim's: the model as its schema
/// shows it, the objects per entity, the history, the files, and what looks wrong.
///
/// It round-trips through `JSONEncoder` (`groupsim inspect --json`); dates are ISO 8601 there.
public struct StoreInspection: Sendable, Hashable, Codable {
    /// Whose layout the file has.
    public enum Layout: String, Sendable, Hashable, Codable {
        /// Core Data's: `Z_METADATA.Z_PLIST` a binary property list, history strings in `Z...TS` columns.
        case coreData = "core-data"
        /// Core Data's, written by SharedStore (its metadata carries `GroupSimLayout`).
        case groupsim
        /// Metadata that is neither (missing, unreadable, or of an unknown form): see `problems`.
        case unknown
    }

    /// The `.sqlite` file inspected.
    public var path: String
    public var layout: Layout
    /// `Z_METADATA.Z_UUID`, the store's identifier.
    public var identifier: String?
    /// `NSStoreType` from the metadata.
    public var storeType: String?
    /// `NSPersistenceFrameworkVersion` (Core Data's layout only).
    public var frameworkVersion: Int?
    /// The entity names the metadata holds version hashes for (`NSStoreModelVersionHashes`), sorted.
    public var hashedEntities: [String]
    /// Every entity of `Z_PRIMARYKEY`, in `Z_ENT` order.
    public var entities: [Entity]
    /// The persistent history, or nil when the store has none.
    public var history: History?
    public var files: Files
    /// What looks wrong, as sentences: a missing `-wal`, history never purged, model hashes that do not
    /// match the entities.
    public var problems: [String]
    /// The rows asked for (`StoreInspector.inspect(_:findingRows:)`) that the store does not hold; nil when
    /// none were asked for.
    public var missingRows: [StoreRow]?
    /// The model SharedStore keeps in `Z_MODELCACHE` (its own stores only): the exact model, names' case,
    /// types and optionality included, which the schema alone cannot tell.
    public var storedModel: ModelDescription?

    /// One entity, as `Z_PRIMARYKEY` and its table show it.
    public struct Entity: Sendable, Hashable, Codable {
        public var name: String
        /// `Z_ENT`.
        public var number: Int64
        /// The parent entity's name, for a sub-entity (`Z_SUPER`).
        public var parent: String?
        /// The table its rows are in: its root entity's.
        public var table: String
        /// Its own objects (rows of `table` with its `Z_ENT`), sub-entities' apart.
        public var count: Int
        /// `Z_PRIMARYKEY.Z_MAX`: the highest primary key handed out.
        public var maxPrimaryKey: Int64
        /// The attributes of its table (a root entity's: sub-entities' columns are not told apart).
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        /// Its uniqueness constraints, each a list of attribute names, as its unique indexes
        /// (`Z_<Entity>_UNIQUE_<attributes>`) name them.
        public var constraints: [[String]] = []
        /// Its first rows by key, when asked for (`inspect --rows N`): each its `Z_PK` and the text of its
        /// table's attribute columns, in `attributes` order of its root (strings cut at 80 characters, data
        /// as its size; nil for NULL).
        public var samples: [Sample]?

        /// One row of `samples`.
        public struct Sample: Sendable, Hashable, Codable {
            public var primaryKey: Int64
            public var values: [String?]
        }

        public init(name: String, number: Int64, parent: String?, table: String, count: Int, maxPrimaryKey: Int64,
                    attributes: [Attribute], relationships: [Relationship]) {
            self.name = name
            self.number = number
            self.parent = parent
            self.table = table
            self.count = count
            self.maxPrimaryKey = maxPrimaryKey
            self.attributes = attributes
            self.relationships = relationships
        }
    }

    /// An attribute column. Core Data upper-cases column names, so `name` is the column's lowercased.
    public struct Attribute: Sendable, Hashable, Codable {
        public var name: String
        public var column: String
        /// From the declared column type: `int` (INTEGER: integers and booleans), `double` (FLOAT),
        /// `decimal`, `date` (TIMESTAMP), `string` (VARCHAR), `binary` (BLOB: data, UUIDs, transformables).
        public var type: String

        public init(name: String, column: String, type: String) {
            self.name = name
            self.column = column
            self.type = type
        }
    }

    /// A relationship the schema shows: a to-one column (indexed, holding a primary key), or either
    /// side of a join table. A to-many whose inverse is a to-one leaves no trace of its own name.
    public struct Relationship: Sendable, Hashable, Codable {
        public var name: String
        /// The destination entity, when the schema tells it (a `Z<n>_` column, a join table's numbers, or a
        /// to-one named after an entity); nil otherwise.
        public var destination: String?
        public var toMany: Bool
        /// The to-one's column, or the join table.
        public var storage: String
        /// Whether the store keeps an order of its objects (a `Z_FOK_` column beside their keys in the join
        /// table: an ordered to-many).
        public var isOrdered: Bool

        public init(name: String, destination: String?, toMany: Bool, storage: String, isOrdered: Bool = false) {
            self.name = name
            self.destination = destination
            self.toMany = toMany
            self.storage = storage
            self.isOrdered = isOrdered
        }
    }

    /// `ATRANSACTION` and `ACHANGE`.
    public struct History: Sendable, Hashable, Codable {
        public var transactions: Int
        public var changes: Int
        public var inserts: Int
        public var updates: Int
        public var deletes: Int
        /// Changes whose `ZCHANGETYPE` is none of the three (counted in `changes`).
        public var unknownChanges: Int = 0
        /// Transactions per author (nil: none set), bundle id and process, most first: the first
        /// `InspectionReader.listedNames` of each, each name cut at 200 characters.
        public var authors: [NamedCount]
        public var bundleIdentifiers: [NamedCount]
        public var processes: [NamedCount]
        /// How many more authors, bundle ids and processes the history names than are listed.
        public var unlistedAuthors = 0
        public var unlistedBundleIdentifiers = 0
        public var unlistedProcesses = 0
        /// The first and last transactions' timestamps.
        public var first: Date?
        public var last: Date?
        /// The lowest and highest tokens kept: a token older than `oldestToken` has been purged.
        public var oldestToken: Int64?
        public var newestToken: Int64?
    }

    /// How many transactions carry one value (nil: unset).
    public struct NamedCount: Sendable, Hashable, Codable {
        public var name: String?
        public var transactions: Int

        public init(name: String?, transactions: Int) {
            self.name = name
            self.transactions = transactions
        }
    }

    /// The store's files and their sizes in bytes (nil: absent).
    public struct Files: Sendable, Hashable, Codable {
        public var store: Int64
        public var wal: Int64?
        public var shm: Int64?
    }
}

/// One row of a store: an entity's object by primary key (`Note` 12).
public struct StoreRow: Sendable, Hashable, Codable, CustomStringConvertible {
    public var entity: String
    public var primaryKey: Int64

    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    public var description: String { "\(entity) \(primaryKey)" }
}
