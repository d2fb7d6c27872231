import Basics
import Foundation

/// A validated, compiled model: entity numbers, table and column names, relationship storage.
///
/// Create it from a `ModelDescription`; it is immutable and shared by every store that uses it.
public final class Model: Sendable {
    /// The description it was built from.
    public let modelDescription: ModelDescription
    /// A stable hash of the model's structure, stored in `Z_METADATA` to refuse a store made with another model.
    public let versionHash: String
    /// Each entity's version hash (`NSStoreModelVersionHashes`), 32 bytes.
    public let entityVersionHashes: [String: [UInt8]]
    let entities: [EntityInfo]
    let entityIndex: [String: Int]
    /// Whether any relationship is stored in a join table (saves skip join-table work otherwise).
    let hasJoinTables: Bool
    /// Whether some entity has a uniqueness constraint (a save then looks for constraint conflicts).
    let hasUniqueAttributes: Bool
    /// Whether some relationship is to-many (a save then forgets the to-many contents it changed).
    let hasToManyRelationships: Bool
    /// Whether some entity is a sub-entity.
    let hasInheritance: Bool
    /// Whether some to-many is ordered (a save then writes its members' order keys).
    let hasOrderedRelationships: Bool
    /// Per entity (by index): the to-one slots that are the inverse of an ordered to-many, with the order
    /// column beside them (a member that changes owner loses its place).
    let slotOrderColumns: [[Int: String]]
    /// The entities by `Z_ENT` (numbers run from 1 without gaps).
    private let byNumber: [EntityInfo]
    /// Whether some to-one points at an entity with sub-entities (a save then writes its `Z<n>_` column).
    let hasCompanionColumns: Bool
    /// This model among every model made in the process (keys remember it: a freed model's address can
    /// be reused, a serial cannot).
    let serial = ModelSerial.next()

    /// Validates and compiles `description`.
    ///
    /// - Throws: `ModelError` naming the entity (and the property) for a duplicate name, a relationship to a
    ///   missing entity, an inverse that does not point back, or a default value of the wrong type.
    public init(_ description: ModelDescription) throws(ModelError) {
        modelDescription = description
        var index: [String: Int] = [:]
        guard !description.entities.isEmpty else {
            throw ModelError(entity: "(model)", reason: "the model has no entities")
        }
        for (i, entity) in description.entities.enumerated() {
            guard PropertySyntax.isIdentifier(entity.name) else {
                throw ModelError(entity: entity.name, reason: "an entity name must be an identifier")
            }
            guard index[entity.name] == nil else {
                throw ModelError(entity: entity.name, reason: "duplicate entity name")
            }
            index[entity.name] = i
        }
        entityIndex = index
        if let deep = description.entityInheritingTooDeeply {
            throw ModelError(entity: deep, reason: "it inherits through more than \(ModelDescription.maximumInheritanceDepth) parent "
                + "entities, the most a model may have")
        }
        entities = try ModelCompiler(description: description, entityIndex: index).compile()
        byNumber = entities.sorted { $0.entityNumber < $1.entityNumber }
        hasJoinTables = entities.contains { entity in
            entity.relationships.contains { if case .joinTable = $0.storage { true } else { false } }
        }
        hasUniqueAttributes = entities.contains { !$0.constraints.isEmpty }
        hasToManyRelationships = entities.contains { $0.relationships.contains(where: \.isToMany) }
        hasCompanionColumns = entities.contains { !$0.family.companions.isEmpty }
        hasInheritance = description.hasInheritance
        hasOrderedRelationships = entities.contains { $0.relationships.contains { $0.orderColumn != nil } }
        var slotOrders = [[Int: String]](repeating: [:], count: entities.count)
        for entity in entities {
            for relationship in entity.relationships {
                guard let column = relationship.orderColumn, case .inverseForeignKey(let slot) = relationship.storage else { continue }
                let members = entities[relationship.destination].family.kinds
                for member in entities where members.contains(member.entityNumber) { slotOrders[member.index][slot] = column }
            }
        }
        slotOrderColumns = slotOrders
        entityVersionHashes = Model.entityHashes(of: description)
        versionHash = Model.digest(of: entityVersionHashes)
    }

    /// The names of the entities, in declaration order.
    public var entityNames: [String] { entities.map(\.name) }

    /// The attributes of `entity`, or `nil` when the model has no such entity.
    public func attributes(of entity: String) -> [AttributeDescription]? {
        entityIndex[entity].map { entities[$0].attributes }
    }

    /// The relationships of `entity`, with inverses resolved, or `nil` when the model has no such entity.
    public func relationships(of entity: String) -> [RelationshipDescription]? {
        entityIndex[entity].map { i in
            entities[i].relationships.map {
                RelationshipDescription(name: $0.name, destination: entities[$0.destination].name,
                                        isToMany: $0.isToMany, inverse: $0.inverseName, isOrdered: $0.orderColumn != nil)
            }
        }
    }

    /// The table that holds an ordered to-many's order keys: its members' (a one-to-many), or its join table;
    /// nil for a relationship that is not an ordered to-many.
    func orderTable(of relationship: RelationshipInfo) -> String? {
        guard relationship.orderColumn != nil else { return nil }
        switch relationship.storage {
        case .inverseForeignKey: return entities[relationship.destination].tableName
        case .joinTable(let table, _, _): return table
        case .foreignKey: return nil
        }
    }

    /// The `Z_ENT` of the entity named `name`; nil when the model has none.
    public func entityNumber(of name: String) -> Int64? {
        index(ofEntity: name).map { entities[$0].entityNumber }
    }

    /// `Z_SUPER`: the parent entity's number, 0 for a root entity.
    func superNumber(of entity: EntityInfo) -> Int64 {
        entity.family.parent.map { entities[$0].entityNumber } ?? 0
    }

    /// Whether objects of entity `index` are objects of `ancestor` (the same entity, or a sub-entity of it).
    func isKind(_ index: Int, of ancestor: EntityInfo) -> Bool {
        ancestor.family.kinds.contains(entities[index].entityNumber)
    }

    /// The names of `entity` and its sub-entities (just `entity` when the model has no such entity): a
    /// few, compared rather than hashed.
    func kindNames(of entity: String) -> [String] {
        guard let i = index(ofEntity: entity) else { return [entity] }
        let kinds = entities[i].family.kinds
        guard kinds.count > 1 else { return [entity] }
        return entities(numbered: kinds).map(\.name)
    }

    /// The entity whose `Z_ENT` is `number`.
    func entity(number: Int64) -> EntityInfo? {
        number >= 1 && number <= Int64(byNumber.count) ? byNumber[Int(number - 1)] : nil
    }

    /// The entities whose `Z_ENT` is in `numbers` (a family's kinds), in number order.
    func entities(numbered numbers: ClosedRange<Int64>) -> ArraySlice<EntityInfo> {
        let low = max(0, Int(numbers.lowerBound - 1)), high = min(byNumber.count, Int(numbers.upperBound))
        return low < high ? byNumber[low..<high] : []
    }

    func entity(named name: String) throws(StoreError) -> EntityInfo {
        guard let i = index(ofEntity: name) else { throw StoreError.unknownEntity(name) }
        return entities[i]
    }

    /// The index of the entity named `name` in `entities`.
    func index(ofEntity name: String) -> Int? {
        // Models have a handful of entities: comparing short names beats hashing them on every access.
        if entities.count <= 8 {
            for entity in entities where entity.name == name { return entity.index }
            return nil
        }
        return entityIndex[name]
    }

    /// What Core Data's version hashes cover (`NSPropertyDescription.versionHash`: the name and whether it
    /// is optional; an attribute's type; a relationship's destination, inverse, cardinality and order), and the
    /// uniqueness constraints; not default values, which need no migration. One SHA-256 per entity, over
    /// this canonical text of it (GroupSim's definition: Core Data's own algorithm is not published, so a
    /// store Core Data wrote carries other hashes; see `StoreSchema`).
    static func entityHashes(of description: ModelDescription) -> [String: [UInt8]] {
        var hashes: [String: [UInt8]] = [:]
        for entity in description.entities {
            var canonical = "E:\(entity.name);"
            if let parent = entity.parent { canonical += "P:\(parent);" }
            if entity.isAbstract { canonical += "abstract;" }
            for a in entity.attributes.sorted(by: { $0.name < $1.name }) {
                canonical += "A:\(a.name):\(a.type):\(a.isOptional)\(a.isUnique ? ":unique" : "");"
            }
            for r in entity.relationships.sorted(by: { $0.name < $1.name }) {
                canonical += "R:\(r.name):\(r.destination):\(r.isToMany):\(r.isOptional):\(r.inverse ?? "-")\(r.isOrdered ? ":ordered" : "");"
            }
            for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ",") }).sorted() { canonical += "U:\(constraint);" }
            hashes[entity.name] = SHA256.digest(Array(canonical.utf8))
        }
        return hashes
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of the SHA-256 of the entity hashes in name order; what
    /// tells one model version from another.
    static func digest(of hashes: [String: [UInt8]]) -> String {
        let joined = hashes.keys.sorted().flatMap { hashes[$0]! }
        return Data(SHA256.digest(joined)).base64EncodedString()
    }
}

/// One stored value of a row: an attribute, or the foreign key of a to-one relationship.
struct Slot: Sendable {
    enum Kind: Sendable, Equatable {
        case attribute(AttributeType)
        case toOne(destination: Int)
    }
    let name: String
    let column: String
    let kind: Kind
    let isOptional: Bool
    let defaultValue: Value

    var attributeType: AttributeType? { if case .attribute(let t) = kind { t } else { nil } }
}

/// How a relationship is stored.
enum RelationshipStorage: Sendable, Equatable {
    /// A to-one: the foreign key in this entity's slot.
    case foreignKey(slot: Int)
    /// A to-many whose inverse is a to-one: the destination's foreign key slot.
    case inverseForeignKey(slot: Int)
    /// A join table: this side's primary key in `ownerColumn`, the destination's in `targetColumn`.
    case joinTable(table: String, ownerColumn: String, targetColumn: String)
}

struct RelationshipInfo: Sendable {
    let name: String
    let destination: Int
    let isToMany: Bool
    let inverseName: String?
    let storage: RelationshipStorage
    let deleteRule: DeleteRule
    /// For an ordered to-many: the column that holds each member's order key (`Z_FOK_<inverse>` in the
    /// destination's table, or `Z_FOK_<n><NAME>` in the join table); nil otherwise.
    let orderColumn: String?
}

/// The compiled form of one entity (a class: it is read on every object access, so copies must be cheap).
final class EntityInfo: Sendable {
    let index: Int
    /// `Z_ENT`: 1-based, root entities numbered in name order, each followed by its sub-entities, as Core
    /// Data does.
    let entityNumber: Int64
    let name: String
    let tableName: String
    let attributes: [AttributeDescription]
    /// Attributes first (same order as `attributes`), then to-one foreign keys.
    let slots: [Slot]
    let slotIndex: [String: Int]
    let relationships: [RelationshipInfo]
    let relationshipIndex: [String: Int]
    /// `Z_PK, Z_OPT, <slot columns>`.
    let selectList: String
    /// A new object's values: defaults, or zero values for non-optional attributes without one.
    let initialValues: [Value]
    /// Each slot's attribute type (`nil` for a to-one foreign key): what reading a row needs, without
    /// copying the slots' names.
    let slotTypes: [AttributeType?]
    /// `INSERT INTO <table> (Z_PK, Z_ENT, Z_OPT, <slots>) VALUES (?, ?, 1, ...)`.
    let insertSQL: String
    /// The same with the entity number written in (`VALUES (?, <Z_ENT>, 1, ...)`): the primary key is
    /// parameter 1, the slots' values parameters 2... (a save binds one parameter less per row).
    let saveInsertSQL: String
    let attributeCount: Int
    /// Whether the entity has to-one relationships (slots after its attributes).
    var hasToOneSlots: Bool { slots.count > attributeCount }
    /// The attributes' names, by slot (what `attributeSlot` compares, without copying whole slots).
    let attributeNames: [String]
    /// The entity's uniqueness constraints, its parent's included.
    let constraints: [UniquenessConstraint]

    /// Its place in its inheritance tree, as stored.
    let family: EntityFamily

    init(index: Int, entityNumber: Int64, name: String, tableName: String, attributes: [AttributeDescription],
         slots: [Slot], slotIndex: [String: Int], relationships: [RelationshipInfo], relationshipIndex: [String: Int],
         constraints: [UniquenessConstraint] = [], family: EntityFamily)
    {
        self.family = family
        self.index = index
        self.entityNumber = entityNumber
        self.name = name
        self.tableName = tableName
        self.attributes = attributes
        self.slots = slots
        self.slotIndex = slotIndex
        self.relationships = relationships
        self.relationshipIndex = relationshipIndex
        selectList = (["Z_PK", "Z_OPT"] + slots.map(\.column)).joined(separator: ", ")
        initialValues = slots.map(\.defaultValue)
        slotTypes = slots.map(\.attributeType)
        let marks = String(repeating: ", ?", count: slots.count)
        insertSQL = "INSERT INTO \(tableName) (Z_PK, Z_ENT, Z_OPT\(slots.map { ", " + $0.column }.joined())) VALUES (?, ?, 1\(marks))"
        saveInsertSQL = "INSERT INTO \(tableName) (Z_PK, Z_ENT, Z_OPT\(slots.map { ", " + $0.column }.joined())) VALUES (?, \(entityNumber), 1\(marks))"
        attributeCount = attributes.count
        attributeNames = slots.prefix(attributes.count).map(\.name)
        self.constraints = constraints
    }


    func attributeSlot(_ name: String) throws(StoreError) -> Int {
        // Called for every value set or read by name: for a few attributes, comparing the (usually
        // short, inline) names costs less than hashing one.
        if attributeCount <= 16 {
            let found = attributeNames.withUnsafeBufferPointer { names -> Int? in
                for i in names.indices where names[i] == name { return i }
                return nil
            }
            if let found { return found }
        } else if let i = slotIndex[name], i < attributeCount {
            return i
        }
        throw StoreError.unknownProperty(entity: self.name, property: name)
    }

    func relationship(_ name: String) throws(StoreError) -> RelationshipInfo {
        guard let i = relationshipIndex[name] else {
            throw StoreError.unknownProperty(entity: self.name, property: name)
        }
        return relationships[i]
    }
}

/// Hands out `Model.serial`s.
enum ModelSerial {
    private static let counter = Counter()

    static func next() -> UInt64 { counter.next() }

    private final class Counter: @unchecked Sendable {
        /// Guards `value`: models are made on any thread.
        private let lock = NSLock()
        private var value: UInt64 = 0

        func next() -> UInt64 {
            lock.withLock {
                value += 1
                return value
            }
        }
    }
}
