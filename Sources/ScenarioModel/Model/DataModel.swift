/// The scenario's managed object model: entities in declaration order.
///
/// Written under `store.model` as `Entity: { property: type }`, where a type is `string`, `int`,
/// `double`, `bool`, `date` or `uuid` (`?` optional, `= value` default), `[Entity]` (to-many) or
/// `Entity?` / `Entity` (to-one).
public struct DataModel: Sendable, Hashable, Codable {
    /// The entities, in the order the file declares them.
    public var entities: [EntityModel]

    /// Creates a model.
    public init(entities: [EntityModel]) {
        self.entities = entities
    }

    /// The entity named `name`, or nil.
    public func entity(named name: String) -> EntityModel? {
        entities.first { $0.name == name }
    }

    /// The entity names, in declaration order.
    public var entityNames: [String] { entities.map(\.name) }
}

/// One entity: its attributes and relationships, each in declaration order.
public struct EntityModel: Sendable, Hashable, Codable {
    /// The entity's name (starts with an uppercase letter, as Core Data requires).
    public var name: String
    /// Its attributes.
    public var attributes: [AttributeModel]
    /// Its relationships.
    public var relationships: [RelationshipModel]

    /// Creates an entity.
    public init(name: String, attributes: [AttributeModel], relationships: [RelationshipModel] = []) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
    }

    /// The attribute named `name`, or nil.
    public func attribute(named name: String) -> AttributeModel? {
        attributes.first { $0.name == name }
    }

    /// The relationship named `name`, or nil.
    public func relationship(named name: String) -> RelationshipModel? {
        relationships.first { $0.name == name }
    }

    /// The attribute that identifies an object across synced stores: the entity's first `uuid`
    /// attribute, or nil when it has none (sync then assigns one at insert).
    public var globalIdentifier: AttributeModel? {
        attributes.first { $0.type == .uuid }
    }

    /// The values a newly inserted object holds: `explicit` ones, then each attribute's default, then
    /// null for optional attributes, then the type's zero value; a required `uuid` attribute that is not
    /// set gets ``AttributeValue/derivedUUID(objectID:attribute:)``, so the same scenario id inserted in
    /// two stores carries the same global identifier.
    public func valuesForInsert(objectID: String, explicit: [String: AttributeValue]) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for attribute in attributes {
            if let value = explicit[attribute.name] ?? attribute.defaultValue {
                values[attribute.name] = value
            } else if attribute.isOptional {
                values[attribute.name] = .null
            } else if attribute.type == .uuid {
                values[attribute.name] = .derivedUUID(objectID: objectID, attribute: attribute.name)
            } else {
                values[attribute.name] = .zero(of: attribute.type)
            }
        }
        return values
    }
}

/// An attribute: a name, a type, whether it may be null, and its default.
public struct AttributeModel: Sendable, Hashable, Codable {
    /// The attribute's name (starts with a lowercase letter).
    public var name: String
    /// Its type.
    public var type: AttributeType
    /// Whether it may hold null (`string?`).
    public var isOptional: Bool
    /// Its default value (`bool = false`), or nil for none.
    public var defaultValue: AttributeValue?

    /// Creates an attribute.
    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }
}

/// A relationship to another entity (or the same one).
public struct RelationshipModel: Sendable, Hashable, Codable {
    /// The relationship's name (starts with a lowercase letter).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// Whether it is to-many (`[Tag]`); to-many relationships are always optional.
    public var isToMany: Bool
    /// Whether a to-one relationship may be empty (`Note?`).
    public var isOptional: Bool
    /// The inverse relationship on the destination, when it could be inferred: the destination has
    /// exactly one relationship back to this entity, and this entity exactly one to the destination.
    public var inverse: String?

    /// Creates a relationship.
    public init(name: String, destination: String, isToMany: Bool, isOptional: Bool = true, inverse: String? = nil) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.inverse = inverse
    }
}

/// The shared store: the app group whose container holds it, its file name and its model.
public struct StoreDescription: Sendable, Hashable, Codable {
    /// The app-group identifier, such as `group.example.notes`; it names the container directory.
    public var group: String
    /// The store's name: its file is `<container>/<name>.sqlite` (with `-wal` and `-shm`).
    public var name: String
    /// The managed object model.
    public var model: DataModel

    /// Creates a store description.
    public init(group: String, name: String, model: DataModel) {
        self.group = group
        self.name = name
        self.model = model
    }
}
