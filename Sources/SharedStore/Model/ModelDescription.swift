/// An attribute's type, as written in a scenario's model (`string int double bool date uuid`).
public enum AttributeType: String, Sendable, CaseIterable, CustomStringConvertible {
    case string, int, double, bool, date, uuid

    /// The SQLite column type Core Data uses for it.
    var sqlType: String {
        switch self {
        case .string: "VARCHAR"
        case .int, .bool: "INTEGER"
        case .double, .date: "FLOAT"
        case .uuid: "BLOB"
        }
    }

    public var description: String { rawValue }
}

/// An attribute of an entity: name, type, optionality and default value.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name (`title`).
    public var name: String
    /// Its type.
    public var type: AttributeType
    /// Whether it may be nil. A non-optional attribute without a value saves its default, or the
    /// type's zero value (`""`, `0`, `false`, the reference date, the nil UUID) when it has none.
    public var isOptional: Bool
    /// The value a new object starts with (`bool = false`); `nil` for none.
    public var defaultValue: Value?
    /// Whether a deleted object's value is kept in its history tombstone (Core Data's
    /// `preservesValueInHistoryOnDeletion`); by default only `uuid` attributes are, as global identifiers.
    public var preservesValueInHistoryOnDeletion: Bool

    /// Creates an attribute.
    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: Value? = nil,
                preservesValueInHistoryOnDeletion: Bool? = nil)
    {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion ?? (type == .uuid)
    }
}

/// A relationship from one entity to another: to-one (`Note?`) or to-many (`[Tag]`).
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name (`tags`).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// Whether it is to-many.
    public var isToMany: Bool
    /// The inverse relationship's name on the destination; `nil` lets the model infer it when exactly one
    /// relationship of the destination points back (and none when there is no such relationship).
    public var inverse: String?

    /// Creates a relationship.
    public init(name: String, destination: String, isToMany: Bool, inverse: String? = nil) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.inverse = inverse
    }
}

/// An entity: a name, its attributes and its relationships.
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name (`Note`).
    public var name: String
    /// Its attributes, in declaration order.
    public var attributes: [AttributeDescription]
    /// Its relationships, in declaration order.
    public var relationships: [RelationshipDescription]

    /// Creates an entity.
    public init(name: String, attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = []) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// A data model: the entities a store holds. Validate and compile it with `Model(_:)`.
///
/// ```swift
/// let description = try ModelDescription.parse([
///     ("Note", [("title", "string"), ("pinned", "bool = false"), ("tags", "[Tag]")]),
///     ("Tag", [("name", "string"), ("note", "Note?")]),
/// ])
/// let model = try Model(description)
/// ```
public struct ModelDescription: Sendable, Hashable {
    /// The entities, in declaration order.
    public var entities: [EntityDescription]

    /// Creates a model description.
    public init(entities: [EntityDescription]) {
        self.entities = entities
    }
}

/// An invalid model: names the entity, the property when there is one, and what is wrong.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity at fault.
    public let entity: String
    /// The attribute or relationship at fault, when the problem is one property.
    public let property: String?
    /// What is wrong, as a sentence fragment.
    public let reason: String

    /// Creates an error.
    public init(entity: String, property: String? = nil, reason: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    public var description: String {
        if let property { return "model: \(entity).\(property): \(reason)" }
        return "model: \(entity): \(reason)"
    }
}
