import Basics
import Foundation

/// A fetch: an entity, an optional predicate and sort (Core Data's `NSFetchRequest`).
///
/// ```swift
/// FetchRequest(entity: "Note", predicate: "rank > 2", sort: "-rank, title")
/// FetchRequest(entity: "Note", filter: try FetchPredicate(parsing: "rank > 2"), sortKeys: [SortKey(attribute: "rank")])
/// ```
/// The text forms are parsed, with the entity's types, when the fetch runs; the parsed forms (`filter`,
/// `sortKeys`) win when given, as a scenario's validated `where:` arrives.
public struct FetchRequest: Sendable, Hashable {
    /// The entity to fetch.
    public var entity: String
    /// A predicate's text (`rank > 2 and pinned == true`), or `nil` for every object.
    public var predicate: String?
    /// The predicate, parsed (wins over `predicate`).
    public var filter: FetchPredicate?
    /// Comma-separated attribute names; a leading `-` sorts descending (`"-rank, title"`).
    /// Rows with equal keys come in primary-key order.
    public var sort: String?
    /// The sort, parsed (wins over `sort`).
    public var sortKeys: [SortKey]?
    /// Whether objects not registered yet come back as faults (Core Data's default: `true`). Either way the
    /// fetched rows fill the row cache.
    public var returnsObjectsAsFaults: Bool
    /// At most this many objects, or `nil`.
    public var fetchLimit: Int?
    /// Whether this context's unsaved inserts matching the predicate are included (appended after the
    /// fetched rows) and its pending deletes left out (Core Data's default: `true`).
    public var includesPendingChanges: Bool
    /// Whether objects of the entity's sub-entities are fetched too (Core Data's default: `true`).
    public var includesSubentities: Bool
    /// Whether registered objects the fetch finds take the fetched values (`NSFetchRequest`'s
    /// `shouldRefreshRefetchedObjects`, default `false`); the context's own setting also turns it on.
    public var shouldRefreshRefetchedObjects: Bool
    /// Relationship key paths (`folder`, `folder.owner`) whose objects the fetch reads with its results
    /// (`relationshipKeyPathsForPrefetching`): their rows fill the row cache at the fetch, so their faults
    /// fire from what the store held then.
    public var relationshipKeyPathsForPrefetching: [String]

    /// Creates a fetch request.
    public init(entity: String, predicate: String? = nil, filter: FetchPredicate? = nil, sort: String? = nil,
                sortKeys: [SortKey]? = nil, returnsObjectsAsFaults: Bool = true, fetchLimit: Int? = nil,
                includesPendingChanges: Bool = true, includesSubentities: Bool = true,
                shouldRefreshRefetchedObjects: Bool = false, relationshipKeyPathsForPrefetching: [String] = [])
    {
        self.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
        self.includesSubentities = includesSubentities
        self.shouldRefreshRefetchedObjects = shouldRefreshRefetchedObjects
        self.entity = entity
        self.predicate = predicate
        self.filter = filter
        self.sort = sort
        self.sortKeys = sortKeys
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.fetchLimit = fetchLimit
        self.includesPendingChanges = includesPendingChanges
    }

    /// Whether the fetch returns every object of its entity: no predicate, no limit.
    var resolvesEveryObject: Bool {
        filter == nil && (predicate?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) && fetchLimit == nil
    }

    /// Identifies the fetch's list in the view: re-running the same fetch replaces its list.
    var viewKey: String {
        "\(entity)\(includesSubentities ? "" : "!")|\(filter?.description ?? predicate ?? "")|\(sortKeys.map { $0.map(\.description).joined(separator: ",") } ?? sort ?? "")"
    }

    /// The predicate to run: `filter`, or `predicate` parsed against `entity`'s attributes.
    func resolvedPredicate(_ entity: EntityInfo, model: Model) throws(FetchPredicateError) -> FetchPredicate? {
        if let filter { return filter }
        guard let text = predicate, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try FetchPredicate(parsing: text, entity: StoreEntitySchema(model: model, entity: entity))
    }

    /// The sort to run: `sortKeys`, or `sort` parsed.
    func resolvedSort(_ entity: EntityInfo) throws(FetchPredicateError) -> [(slot: Int, ascending: Bool)] {
        if let sortKeys {
            var keys: [(slot: Int, ascending: Bool)] = []
            for key in sortKeys {
                guard let slot = entity.slotIndex[key.attribute], entity.slots[slot].attributeType != nil else {
                    throw FetchPredicateError(message: "\(entity.name) has no attribute `\(key.attribute)` to sort by", offset: 0)
                }
                keys.append((slot, key.ascending))
            }
            return keys
        }
        return try PredicateSQL.sortKeys(sort, entity)
    }
}

/// Translating predicates and sort keys to SQL for one entity. The SQL selects exactly the rows
/// `FetchPredicate.evaluate` matches.
enum PredicateSQL {
    static func whereClause(_ predicate: FetchPredicate, _ entity: EntityInfo, model: Model) throws(FetchPredicateError) -> (String, [Value]) {
        var arguments: [Value] = []
        let sql = try translate(predicate, entity, model: model, column: "", &arguments)
        return (sql, arguments)
    }

    /// `column` qualifies the entity's columns (`d.` inside a key path's subquery).
    private static func translate(_ node: FetchPredicate, _ entity: EntityInfo, model: Model, column prefix: String,
                                  _ arguments: inout [Value]) throws(FetchPredicateError) -> String {
        switch node {
        case .and(let operands):
            guard !operands.isEmpty else { return "1" }
            var parts: [String] = []
            for operand in operands { parts.append(try translate(operand, entity, model: model, column: prefix, &arguments)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let operands):
            guard !operands.isEmpty else { return "0" }
            var parts: [String] = []
            for operand in operands { parts.append(try translate(operand, entity, model: model, column: prefix, &arguments)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let operand):
            // Two-valued, as in memory: a comparison with NULL is false, so its negation is true.
            return "(NOT coalesce(\(try translate(operand, entity, model: model, column: prefix, &arguments)), 0))"
        case .constant(let flag):
            return flag ? "1" : "0"
        case .related(let key, let quantifier, let inner):
            let alias = Self.alias(below: prefix)
            let (destination, from) = try members(key, of: entity, model: model, outer: prefix, alias: alias)
            let condition = try translate(inner, destination, model: model, column: alias + ".", &arguments)
            switch quantifier {
            case .any: return "EXISTS (SELECT 1 \(from) AND coalesce(\(condition), 0))"
            case .none: return "(NOT EXISTS (SELECT 1 \(from) AND coalesce(\(condition), 0)))"
            case .all: return "(NOT EXISTS (SELECT 1 \(from) AND NOT coalesce(\(condition), 0)))"
            }
        case .relatedCount(let key, let op, let count):
            guard !op.isTextual else {
                throw FetchPredicateError(message: "@count compares with numbers, not \(op.rawValue)", offset: 0)
            }
            let (_, from) = try members(key, of: entity, model: model, outer: prefix, alias: Self.alias(below: prefix))
            arguments.append(.int(count))
            return "(SELECT count(*) \(from)) \(op == .equal ? "=" : op.rawValue) ?"
        case .inList(let key, let values):
            let (name, type) = try attribute(key, entity)
            guard !values.isEmpty else { return "0" }
            for value in values { arguments.append(try convert(value, type, key)) }
            return "\(prefix)\(name) IN (\(values.map { _ in "?" }.joined(separator: ", ")))"
        case .comparison(let key, let op, let value):
            let (bare, type) = try attribute(key, entity)
            let name = prefix + bare
            if op.isTextual {
                guard type == .string else {
                    throw FetchPredicateError(message: "\(op.rawValue) needs a string attribute; `\(key)` is a \(type)", offset: 0)
                }
                // Byte-wise, case-sensitive; NULL matches nothing.
                switch op {
                case .contains:
                    arguments.append(value)
                    return "instr(\(name), ?) > 0"
                case .beginsWith:
                    arguments += [value, value]
                    return "substr(\(name), 1, length(?)) = ?"
                default:
                    arguments += [value, value, value]
                    return "(length(?) = 0 AND \(name) IS NOT NULL OR substr(\(name), -length(?)) = ?)"
                }
            }
            if value.isNull {
                switch op {
                case .equal: return "\(name) IS NULL"
                case .notEqual: return "\(name) IS NOT NULL"
                default: throw FetchPredicateError(message: "`nil` only compares with == or !=", offset: 0)
                }
            }
            // An int attribute compared with a fraction compares as numbers, as in memory.
            let converted = type == .int && value.type == .double ? value : try convert(value, type, key)
            arguments.append(converted)
            return op == .notEqual ? "(\(name) != ? OR \(name) IS NULL)" : "\(name) \(op == .equal ? "=" : op.rawValue) ?"
        }
    }

    /// `FROM <destination> d ... WHERE <the link to the outer row>` for a relationship of `entity`: the
    /// objects it holds, whatever its storage.
    /// The alias of the subquery one relationship below the scope whose columns `prefix` qualifies: `d1`
    /// below the fetched table, `d2` below `d1.`, and so on (a longer key path nests subqueries).
    private static func alias(below prefix: String) -> String {
        guard prefix.hasPrefix("d"), let depth = Int(prefix.dropFirst().dropLast()) else { return "d1" }
        return "d\(depth + 1)"
    }

    /// The FROM and WHERE of the objects relationship `key` of `entity` holds, as alias `alias`, for the
    /// object whose columns `outer` qualifies (the fetched table when empty).
    private static func members(_ key: String, of entity: EntityInfo, model: Model, outer prefix: String, alias d: String)
        throws(FetchPredicateError) -> (EntityInfo, String)
    {
        guard let index = entity.relationshipIndex[key] else {
            throw FetchPredicateError(message: "\(entity.name) has no relationship `\(key)`", offset: 0)
        }
        let relationship = entity.relationships[index]
        let destination = model.entities[relationship.destination]
        let outer = prefix.isEmpty ? entity.tableName : String(prefix.dropLast())
        switch relationship.storage {
        case .foreignKey(let slot):
            return (destination, "FROM \(destination.tableName) \(d) WHERE \(d).Z_PK = \(outer).\(entity.slots[slot].column)")
        case .inverseForeignKey(let slot):
            return (destination, "FROM \(destination.tableName) \(d) WHERE \(d).\(destination.slots[slot].column) = \(outer).Z_PK")
        case .joinTable(let table, let owner, let target):
            let j = "j" + d.dropFirst()
            return (destination, "FROM \(destination.tableName) \(d) JOIN \(table) \(j) ON \(j).\(target) = \(d).Z_PK WHERE \(j).\(owner) = \(outer).Z_PK")
        }
    }

    private static func attribute(_ key: String, _ entity: EntityInfo) throws(FetchPredicateError) -> (String, AttributeType) {
        guard let slot = entity.slotIndex[key], let type = entity.slots[slot].attributeType else {
            throw FetchPredicateError(message: "\(entity.name) has no attribute `\(key)`", offset: 0)
        }
        return (entity.slots[slot].column, type)
    }

    private static func convert(_ value: Value, _ type: AttributeType, _ key: String) throws(FetchPredicateError) -> Value {
        guard let converted = value.converted(to: type) else {
            throw FetchPredicateError(message: "`\(value)` is not a \(type) (attribute `\(key)`)", offset: 0)
        }
        return converted
    }

    /// `"-rank, title"` -> `ZRANK DESC, ZTITLE ASC, Z_PK`.
    static func orderBy(_ keys: [(slot: Int, ascending: Bool)], _ entity: EntityInfo) -> String {
        (keys.map { "\(entity.slots[$0.slot].column) \($0.ascending ? "ASC" : "DESC")" } + ["Z_PK"]).joined(separator: ", ")
    }

    static func sortKeys(_ sort: String?, _ entity: EntityInfo) throws(FetchPredicateError) -> [(slot: Int, ascending: Bool)] {
        guard let sort, !sort.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var keys: [(slot: Int, ascending: Bool)] = []
        var column = 0
        for part in sort.split(separator: ",", omittingEmptySubsequences: false) {
            var key = part.trimmingCharacters(in: .whitespaces)
            let keyColumn = column + (part.count - part.drop { $0 == " " }.count)
            column += part.count + 1
            var ascending = true
            if key.hasPrefix("-") { ascending = false; key.removeFirst() } else if key.hasPrefix("+") { key.removeFirst() }
            guard let slot = entity.slotIndex[key], entity.slots[slot].attributeType != nil else {
                throw FetchPredicateError(message: "\(entity.name) has no attribute `\(key)` to sort by", offset: keyColumn)
            }
            keys.append((slot, ascending))
        }
        return keys
    }
}

/// An entity of a compiled model, with its relationships' destinations: what string predicates are parsed
/// against in SharedStore, key paths included.
struct StoreEntitySchema: PredicateSchema {
    let model: Model
    let entity: EntityInfo

    var predicateEntityName: String { entity.name }
    func predicateAttribute(_ key: String) -> PredicateAttribute {
        guard let slot = entity.slotIndex[key] else {
            return entity.relationshipIndex[key] == nil ? .unknown : .relationship
        }
        return entity.slots[slot].attributeType.map(PredicateAttribute.attribute) ?? .relationship
    }
    var predicateAttributeNames: [String] { entity.predicateAttributeNames }

    func predicateRelationship(_ name: String) -> (destination: any PredicateSchema, toMany: Bool)? {
        guard let index = entity.relationshipIndex[name] else { return nil }
        let relationship = entity.relationships[index]
        return (StoreEntitySchema(model: model, entity: model.entities[relationship.destination]), relationship.isToMany)
    }
}

extension EntityInfo: PredicateSchema {
    var predicateEntityName: String { name }

    func predicateAttribute(_ key: String) -> PredicateAttribute {
        guard let slot = slotIndex[key] else { return relationshipIndex[key] == nil ? .unknown : .relationship }
        return slots[slot].attributeType.map(PredicateAttribute.attribute) ?? .relationship
    }

    var predicateAttributeNames: [String] { slots.compactMap { $0.attributeType == nil ? nil : $0.name } }
}
