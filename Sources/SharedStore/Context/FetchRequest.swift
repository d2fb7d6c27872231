import Foundation

/// A fetch: an entity, an optional predicate and sort (Core Data's `NSFetchRequest`).
///
/// ```swift
/// FetchRequest(entity: "Note", predicate: "rank > 2", sort: "-rank, title")
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// The entity to fetch.
    public var entity: String
    /// A `FetchPredicate` text (`rank > 2 and pinned == true`), or `nil` for every object.
    public var predicate: String?
    /// Comma-separated attribute names; a leading `-` sorts descending (`"-rank, title"`).
    /// Rows with equal keys come in primary-key order.
    public var sort: String?
    /// Whether objects not registered yet come back as faults (Core Data's default: `true`). Either way the
    /// fetched rows fill the row cache.
    public var returnsObjectsAsFaults: Bool
    /// At most this many objects, or `nil`.
    public var fetchLimit: Int?
    /// Whether this context's unsaved inserts matching the predicate are included (appended after the
    /// fetched rows) and its pending deletes left out (Core Data's default: `true`).
    public var includesPendingChanges: Bool

    /// Creates a fetch request.
    public init(entity: String, predicate: String? = nil, sort: String? = nil, returnsObjectsAsFaults: Bool = true,
                fetchLimit: Int? = nil, includesPendingChanges: Bool = true)
    {
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.fetchLimit = fetchLimit
        self.includesPendingChanges = includesPendingChanges
    }

    /// Identifies the fetch's list in the view: re-running the same fetch replaces its list.
    var viewKey: String { "\(entity)|\(predicate ?? "")|\(sort ?? "")" }
}

/// Translating predicates and sort keys to SQL for one entity.
enum PredicateSQL {
    static func whereClause(_ predicate: FetchPredicate, _ entity: EntityInfo) throws(FetchPredicateError) -> (String, [Value]) {
        var arguments: [Value] = []
        let sql = try translate(predicate.root, entity, predicate.text, &arguments)
        return (sql, arguments)
    }

    private static func translate(_ node: FetchPredicate.Node, _ entity: EntityInfo, _ text: String,
                                  _ arguments: inout [Value]) throws(FetchPredicateError) -> String
    {
        switch node {
        case .and(let a, let b):
            return "(\(try translate(a, entity, text, &arguments)) AND \(try translate(b, entity, text, &arguments)))"
        case .or(let a, let b):
            return "(\(try translate(a, entity, text, &arguments)) OR \(try translate(b, entity, text, &arguments)))"
        case .not(let a):
            return "(NOT \(try translate(a, entity, text, &arguments)))"
        case .constant(let flag):
            return flag ? "1" : "0"
        case .inList(let key, let column, let values):
            let (name, type) = try attribute(key, column, entity, text)
            for value in values { arguments.append(try convert(value, type, key, column, text)) }
            return "\(name) IN (\(values.map { _ in "?" }.joined(separator: ", ")))"
        case .comparison(let key, let column, let op, let value):
            let (name, type) = try attribute(key, column, entity, text)
            if op.isTextual {
                guard type == .string else {
                    throw FetchPredicateError(text: text, column: column, message: "\(op.rawValue) needs a string attribute; `\(key)` is a \(type)")
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
                default: throw FetchPredicateError(text: text, column: column, message: "`nil` only compares with == or !=")
                }
            }
            arguments.append(try convert(value, type, key, column, text))
            return op == .notEqual ? "(\(name) != ? OR \(name) IS NULL)" : "\(name) \(op == .equal ? "=" : op.rawValue) ?"
        }
    }

    private static func attribute(_ key: String, _ column: Int, _ entity: EntityInfo, _ text: String)
        throws(FetchPredicateError) -> (String, AttributeType)
    {
        guard let slot = entity.slotIndex[key], let type = entity.slots[slot].attributeType else {
            throw FetchPredicateError(text: text, column: column, message: "\(entity.name) has no attribute `\(key)`")
        }
        return (entity.slots[slot].column, type)
    }

    private static func convert(_ value: Value, _ type: AttributeType, _ key: String, _ column: Int, _ text: String)
        throws(FetchPredicateError) -> Value
    {
        guard let converted = value.converted(to: type) else {
            throw FetchPredicateError(text: text, column: column, message: "`\(value)` is not a \(type) (attribute `\(key)`)")
        }
        return converted
    }

    /// `"-rank, title"` -> `ZRANK DESC, ZTITLE ASC, Z_PK`.
    static func orderBy(_ sort: String?, _ entity: EntityInfo) throws(FetchPredicateError) -> String {
        try sortKeys(sort, entity).map { "\(entity.slots[$0.slot].column) \($0.ascending ? "ASC" : "DESC")" }
            .appending("Z_PK").joined(separator: ", ")
    }

    static func sortKeys(_ sort: String?, _ entity: EntityInfo) throws(FetchPredicateError) -> [(slot: Int, ascending: Bool)] {
        guard let sort, !sort.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var keys: [(slot: Int, ascending: Bool)] = []
        var column = 1
        for part in sort.split(separator: ",", omittingEmptySubsequences: false) {
            var key = part.trimmingCharacters(in: .whitespaces)
            let keyColumn = column + (part.count - part.drop { $0 == " " }.count)
            column += part.count + 1
            var ascending = true
            if key.hasPrefix("-") { ascending = false; key.removeFirst() } else if key.hasPrefix("+") { key.removeFirst() }
            guard let slot = entity.slotIndex[key], entity.slots[slot].attributeType != nil else {
                throw FetchPredicateError(text: sort, column: keyColumn, message: "\(entity.name) has no attribute `\(key)` to sort by")
            }
            keys.append((slot, ascending))
        }
        return keys
    }
}

extension Array {
    fileprivate func appending(_ element: Element) -> [Element] { self + [element] }
}
