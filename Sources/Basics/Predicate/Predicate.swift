import Foundation

/// A `where:` filter: a small part of `NSPredicate`'s language, checked against an entity's attributes.
///
/// Comparisons of an attribute with a literal (`rank > 2`, `title == 'A'`, `body == nil`,
/// `title CONTAINS 'x'`), membership in a list (`rank IN {1, 2}`), joined by `AND` / `&&`, `OR` / `||`,
/// `NOT` / `!` and parentheses; `TRUEPREDICATE`, `FALSEPREDICATE`.
///
/// One language and one parser for every layer: a scenario's `where:` is parsed once, at validation,
/// against the model; the tree travels to the agents as data (`Codable`); SharedStore runs it as SQL and
/// evaluates it in memory with the same meaning; `description` prints it back in a form that parses to
/// the same tree.
///
/// ```swift
/// let predicate = try FetchPredicate(parsing: "rank > 2 and title != 'x'", entity: note)
/// predicate.evaluate(["rank": 3, "title": "A"])   // true
/// ```
public indirect enum FetchPredicate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `attribute op value`.
    case comparison(attribute: String, op: ComparisonOperator, value: Value)
    /// `attribute IN {v1, v2, ...}`: equal to one of the values.
    case inList(attribute: String, values: [Value])
    /// Every operand holds.
    case and([FetchPredicate])
    /// At least one operand holds.
    case or([FetchPredicate])
    /// The operand does not hold.
    case not(FetchPredicate)
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `ANY tags.name == 'x'` (also `ALL`, `NONE`; a to-one's `folder.name == 'x'` is `ANY`): `predicate`,
    /// a comparison or an `IN` on the destination's attributes, holds for any, all or none of the objects
    /// the relationship holds.
    case related(relationship: String, quantifier: RelationshipQuantifier, predicate: FetchPredicate)
    /// `tags.@count > 1`: how many objects the relationship holds (`folder == nil` is `folder.@count == 0`).
    case relatedCount(relationship: String, op: ComparisonOperator, count: Int64)

    /// The attributes the predicate reads.
    public var attributes: Set<String> {
        switch self {
        case let .comparison(attribute, _, _), let .inList(attribute, _): [attribute]
        case let .related(relationship, _, _), let .relatedCount(relationship, _, _): [relationship]
        case let .and(operands), let .or(operands): operands.reduce(into: []) { $0.formUnion($1.attributes) }
        case let .not(operand): operand.attributes
        case .constant: []
        }
    }

    /// The predicate in its own syntax, parsing back to the same tree: `(rank > 2 AND title == "A")`.
    public var description: String {
        switch self {
        case let .comparison(attribute, op, value):
            return "\(attribute) \(op.rawValue) \(Self.literal(value))"
        case let .inList(attribute, values):
            return "\(attribute) IN {" + values.map(Self.literal).joined(separator: ", ") + "}"
        case let .and(operands):
            return operands.isEmpty ? "TRUEPREDICATE" : "(" + operands.map(\.description).joined(separator: " AND ") + ")"
        case let .or(operands):
            return operands.isEmpty ? "FALSEPREDICATE" : "(" + operands.map(\.description).joined(separator: " OR ") + ")"
        case let .not(operand):
            return "NOT (\(operand.description))"
        case let .constant(flag):
            return flag ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case let .related(relationship, quantifier, predicate):
            // The inner predicate names the destination's attribute, or continues the path: one quantifier
            // and the whole path, as the parser reads it.
            var path = relationship
            var inner = predicate
            while case let .related(next, _, deeper) = inner {
                path += "." + next
                inner = deeper
            }
            if case let .relatedCount(next, op, count) = inner {
                return "\(quantifier.rawValue) \(path).\(next).@count \(op.rawValue) \(count)"
            }
            return "\(quantifier.rawValue) \(path)." + inner.description
        case let .relatedCount(relationship, op, count):
            return "\(relationship).@count \(op.rawValue) \(count)"
        }
    }

    /// Whether the predicate follows a relationship (SQL then needs the model, memory the related objects).
    public var followsRelationships: Bool {
        switch self {
        case .related, .relatedCount: true
        case let .and(operands), let .or(operands): operands.contains(where: \.followsRelationships)
        case let .not(operand): operand.followsRelationships
        case .comparison, .inList, .constant: false
        }
    }

    /// A literal as the parser reads it: text quoted with `\` escapes, numbers as Swift prints them
    /// (`1e-05` included), dates and UUIDs as quoted text (the attribute's type converts them back).
    static func literal(_ value: Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return quoted(Value.formatDate(date))
        case .uuid(let uuid): return quoted(uuid.uuidString)
        case .null: return "nil"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}

/// A comparison in a predicate.
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"

    /// Whether this operator orders values (and so needs a number, a date or a string).
    public var isOrdering: Bool { [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }

    /// Whether this operator works on text only.
    public var isTextual: Bool { [.contains, .beginsWith, .endsWith].contains(self) }
}

/// How a key path through a to-many relationship is quantified: `ANY` (`SOME`), `ALL`, `NONE`.
public enum RelationshipQuantifier: String, Sendable, Hashable, Codable, CaseIterable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// What a predicate's attribute names, as the entity it filters knows it.
public enum PredicateAttribute: Sendable, Hashable {
    /// An attribute of this type.
    case attribute(AttributeType)
    /// A relationship (predicates compare attributes only).
    case relationship
    /// Nothing of that name.
    case unknown
}

/// The entity a predicate is checked against while it is parsed.
public protocol PredicateSchema {
    /// The entity's name, for messages.
    var predicateEntityName: String { get }
    /// What `name` is on the entity.
    func predicateAttribute(_ name: String) -> PredicateAttribute
    /// The attribute names, for "did you mean".
    var predicateAttributeNames: [String] { get }
    /// The relationship `name` (its destination, and whether it is to-many), or nil when the schema does
    /// not know the model around the entity (key paths are then refused).
    func predicateRelationship(_ name: String) -> (destination: any PredicateSchema, toMany: Bool)?
}

extension PredicateSchema {
    public func predicateRelationship(_ name: String) -> (destination: any PredicateSchema, toMany: Bool)? { nil }
}

/// An entity of a model, with its relationships' destinations: the schema key paths are checked against.
public struct ModelEntitySchema: PredicateSchema {
    public let model: ModelDescription
    public let entity: EntityDescription

    public init(model: ModelDescription, entity: EntityDescription) {
        self.model = model
        self.entity = entity
    }

    public var predicateEntityName: String { entity.name }
    public func predicateAttribute(_ name: String) -> PredicateAttribute { entity.predicateAttribute(name) }
    public var predicateAttributeNames: [String] { entity.predicateAttributeNames }

    public func predicateRelationship(_ name: String) -> (destination: any PredicateSchema, toMany: Bool)? {
        guard let relationship = entity.relationship(named: name),
              let destination = model.entity(named: relationship.destination) else { return nil }
        return (ModelEntitySchema(model: model, entity: destination), relationship.isToMany)
    }
}

extension EntityDescription: PredicateSchema {
    public var predicateEntityName: String { name }

    public func predicateAttribute(_ name: String) -> PredicateAttribute {
        if let attribute = attribute(named: name) { return .attribute(attribute.type) }
        return relationship(named: name) == nil ? .unknown : .relationship
    }

    public var predicateAttributeNames: [String] { attributes.map(\.name) }
}

/// A predicate that does not parse or does not fit its entity: the message, and where in the text
/// (0-based, counted in Unicode scalars) the problem starts.
public struct FetchPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "column \(offset + 1): \(message)" }
}
