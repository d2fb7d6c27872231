import Foundation

/// An attribute of an entity: name, type, optionality and default value.
public struct AttributeDescription: Sendable, Hashable, Codable {
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
    /// Whether the attribute is a uniqueness constraint of its entity (Core Data's `uniquenessConstraints`,
    /// one attribute each): two rows never hold the same non-nil value, and a save that would make them
    /// is a constraint conflict its merge policy resolves.
    public var isUnique: Bool

    /// Creates an attribute.
    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: Value? = nil,
                preservesValueInHistoryOnDeletion: Bool? = nil, isUnique: Bool = false)
    {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion ?? (type == .uuid)
        self.isUnique = isUnique
    }

    private enum CodingKeys: String, CodingKey { case name, type, isOptional, defaultValue, preservesValueInHistoryOnDeletion, isUnique }

    /// Decodes an attribute; `isUnique` may be absent (descriptions written before it existed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), type: try c.decode(AttributeType.self, forKey: .type),
                  isOptional: try c.decode(Bool.self, forKey: .isOptional),
                  defaultValue: try c.decodeIfPresent(Value.self, forKey: .defaultValue),
                  preservesValueInHistoryOnDeletion: try c.decode(Bool.self, forKey: .preservesValueInHistoryOnDeletion),
                  isUnique: try c.decodeIfPresent(Bool.self, forKey: .isUnique) ?? false)
    }
}

/// What deleting an object does to the objects a relationship of it holds (Core Data's `NSDeleteRule`,
/// Xcode's "Delete Rule").
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// The default: the objects stay, and lose the deleted object from their inverse.
    case nullify
    /// The objects are deleted too, and so on along their own cascading relationships.
    case cascade
    /// The save that deletes an object still holding objects here fails (NSValidationRelationshipDeniedDeleteError).
    case deny
    /// Nothing is done to the objects: an inverse keeps pointing at the deleted object.
    case noAction = "no-action"
}

/// A relationship from one entity to another: to-one (`Note?`) or to-many (`[Tag]`).
public struct RelationshipDescription: Sendable, Hashable, Codable {
    /// The relationship's name (`tags`).
    public var name: String
    /// The destination entity's name.
    public var destination: String
    /// Whether it is to-many.
    public var isToMany: Bool
    /// Whether a to-one may be nil (to-many relationships may always be empty).
    public var isOptional: Bool
    /// The inverse relationship's name on the destination; `nil` lets the model infer it when exactly one
    /// relationship of the destination points back (and none when there is no such relationship).
    public var inverse: String?
    /// What deleting the source object does to the objects the relationship holds. Not part of the model's
    /// version hash (as in Core Data, a changed delete rule needs no migration).
    public var deleteRule: DeleteRule
    /// Whether a to-many keeps its objects in an order of their own (Core Data's `isOrdered`, an
    /// `NSOrderedSet`): stored as an order key beside each member (`Z_FOK_` columns).
    public var isOrdered: Bool

    /// Creates a relationship.
    public init(name: String, destination: String, isToMany: Bool, isOptional: Bool = true, inverse: String? = nil,
                deleteRule: DeleteRule = .nullify, isOrdered: Bool = false) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isOrdered = isOrdered
    }

    private enum CodingKeys: String, CodingKey { case name, destination, isToMany, isOptional, inverse, deleteRule, isOrdered }

    /// Decodes a relationship; `deleteRule` and `isOrdered` may be absent (descriptions written before they
    /// existed: nullify, unordered).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name), destination: try c.decode(String.self, forKey: .destination),
                  isToMany: try c.decode(Bool.self, forKey: .isToMany), isOptional: try c.decode(Bool.self, forKey: .isOptional),
                  inverse: try c.decodeIfPresent(String.self, forKey: .inverse),
                  deleteRule: try c.decodeIfPresent(DeleteRule.self, forKey: .deleteRule) ?? .nullify,
                  isOrdered: try c.decodeIfPresent(Bool.self, forKey: .isOrdered) ?? false)
    }

    /// Encodes a relationship; the default rule (nullify) and an unordered one's order are left out, so
    /// descriptions without them encode as they did before they existed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(destination, forKey: .destination)
        try c.encode(isToMany, forKey: .isToMany)
        try c.encode(isOptional, forKey: .isOptional)
        try c.encodeIfPresent(inverse, forKey: .inverse)
        if deleteRule != .nullify { try c.encode(deleteRule, forKey: .deleteRule) }
        if isOrdered { try c.encode(true, forKey: .isOrdered) }
    }
}

/// An entity: a name, its attributes and its relationships, and the entity it inherits from.
///
/// A sub-entity (`parent` set) lists its parent's properties first, as Core Data's
/// `NSEntityDescription.properties` includes the inherited ones, then its own: every consumer sees the
/// properties an object of it has. `ModelDescription.inheriting()` builds that form from declared ones.
public struct EntityDescription: Sendable, Hashable, Codable {
    /// The entity's name (`Note`).
    public var name: String
    /// Its attributes, in declaration order (inherited ones first).
    public var attributes: [AttributeDescription]
    /// Its relationships, in declaration order (inherited ones first).
    public var relationships: [RelationshipDescription]
    /// The parent entity's name (Core Data's `superentity`), for a sub-entity; `nil` for a root entity.
    public var parent: String?
    /// Whether the entity is abstract (Core Data's `isAbstract`): objects are made of its sub-entities only.
    public var isAbstract: Bool
    /// Uniqueness constraints of several attributes each (Core Data's `uniquenessConstraints`, such as
    /// `[["name", "folder"]]`): no two rows of the entity and its sub-entities hold the same non-nil values
    /// in all of them. Single-attribute constraints are `AttributeDescription.isUnique`. A sub-entity lists
    /// its parent's constraints first (`ModelDescription.inheriting()`), as it has its attributes.
    public var uniquenessConstraints: [[String]]

    /// Creates an entity.
    public init(name: String, attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
                parent: String? = nil, isAbstract: Bool = false, uniquenessConstraints: [[String]] = [])
    {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.parent = parent
        self.isAbstract = isAbstract
        self.uniquenessConstraints = uniquenessConstraints
    }

    private enum CodingKeys: String, CodingKey { case name, attributes, relationships, parent, isAbstract, uniquenessConstraints }

    /// Decodes an entity; `parent`, `isAbstract` and `uniquenessConstraints` may be absent (descriptions
    /// written before they existed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(String.self, forKey: .name),
                  attributes: try c.decode([AttributeDescription].self, forKey: .attributes),
                  relationships: try c.decode([RelationshipDescription].self, forKey: .relationships),
                  parent: try c.decodeIfPresent(String.self, forKey: .parent),
                  isAbstract: try c.decodeIfPresent(Bool.self, forKey: .isAbstract) ?? false,
                  uniquenessConstraints: try c.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints) ?? [])
    }

    /// Encodes an entity, leaving out what it does not use (so descriptions without them read as before).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(relationships, forKey: .relationships)
        try c.encodeIfPresent(parent, forKey: .parent)
        try c.encode(isAbstract, forKey: .isAbstract)
        if !uniquenessConstraints.isEmpty { try c.encode(uniquenessConstraints, forKey: .uniquenessConstraints) }
    }

    /// Every uniqueness constraint, as attribute names: each unique attribute alone, then the composite
    /// ones (a composite constraint of one attribute that is also unique counted once).
    public var allUniquenessConstraints: [[String]] {
        var result = attributes.filter(\.isUnique).map { [$0.name] }
        for constraint in uniquenessConstraints where !result.contains(constraint) { result.append(constraint) }
        return result
    }
}

/// A data model: the entities a store holds, as a scenario declares it (ScenarioModel builds it with
/// positions checked) and as SharedStore compiles it (`Model(_:)`). One description for both: it travels
/// to every agent as data.
///
/// ```swift
/// let description = try ModelDescription.parse([
///     ("Note", [("title", "string"), ("pinned", "bool = false"), ("tags", "[Tag]")]),
///     ("Tag", [("name", "string"), ("note", "Note?")]),
/// ])
/// let model = try Model(description)
/// ```
public struct ModelDescription: Sendable, Hashable, Codable {
    /// The entities, in declaration order.
    public var entities: [EntityDescription]

    /// Creates a model description.
    public init(entities: [EntityDescription]) {
        self.entities = entities
    }
}


extension ModelDescription {
    /// The entity named `name`.
    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    /// The entities' names, in declaration order.
    public var entityNames: [String] { entities.map(\.name) }

    /// Whether `name` is `ancestor` or one of its sub-entities (at any depth): what a relationship to
    /// `ancestor` may hold and a fetch of it returns.
    public func entity(_ name: String, isKindOf ancestor: String) -> Bool {
        name == ancestor || Self.ancestry(of: name, parent: { entity(named: $0)?.parent }).contains(ancestor)
    }

    /// `entity`, then its parent, its parent's, up to its root (stopping before a name seen already, so a
    /// cycle ends): the one walk up an inheritance tree, given how to find an entity's parent.
    public static func ancestry(of entity: String, parent: (String) -> String?) -> [String] {
        var result = [entity]
        while let next = parent(result.last!), !result.contains(next) { result.append(next) }
        return result
    }

    /// How deep entities may inherit (a sub-entity of a root is 1 deep): what the scenario language accepts
    /// and SharedStore compiles. Real models use 1 or 2; the bound keeps every walk up a tree short.
    public static let maximumInheritanceDepth = 16

    /// The first entity (in declaration order) that inherits through more than `maximumInheritanceDepth`
    /// parent entities, found in time linear in the entities: no walk goes further than the bound. A
    /// cycle or a missing parent is no finding here (`Model` refuses them by name).
    public var entityInheritingTooDeeply: String? {
        let parents = entityParents
        for entity in entities where entity.parent != nil {
            var current = entity.name
            var seen: Set<String> = [current]
            var depth = 0
            while let parent = parents[current], seen.insert(parent).inserted {
                depth += 1
                if depth > Self.maximumInheritanceDepth { return entity.name }
                current = parent
            }
        }
        return nil
    }

    /// Each sub-entity's parent, by name (empty without inheritance).
    public var entityParents: [String: String] {
        Dictionary(entities.compactMap { entity in entity.parent.map { (entity.name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Each uniqueness constraint once, under the entity that declares it: the highest ancestor that has
    /// it (a sub-entity inherits its parent's). Empty when there is none.
    public var declaredUniquenessConstraints: [String: [[String]]] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [String: [[String]]] = [:]
        for entity in entities {
            for constraint in entity.allUniquenessConstraints {
                let inherited = entity.parent.flatMap { byName[$0] }?.allUniquenessConstraints.contains(constraint) ?? false
                if !inherited { result[entity.name, default: []].append(constraint) }
            }
        }
        return result
    }

    /// Whether some entity is a sub-entity.
    public var hasInheritance: Bool { entities.contains { $0.parent != nil } }

    /// This description with each sub-entity's inherited properties listed first (parents before
    /// children), from one where every entity lists only the properties it declares. Entities whose
    /// parent is missing or part of a cycle are left as they are (`Model` refuses them).
    public func inheriting() -> ModelDescription {
        var done: [String: EntityDescription] = [:]
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func resolve(_ entity: EntityDescription, _ seen: Set<String>) -> EntityDescription {
            if let resolved = done[entity.name] { return resolved }
            var result = entity
            if let parentName = entity.parent, !seen.contains(parentName), let parent = byName[parentName] {
                let inherited = resolve(parent, seen.union([entity.name]))
                result.attributes = inherited.attributes + entity.attributes.filter { own in !inherited.attributes.contains { $0.name == own.name } }
                result.relationships = inherited.relationships
                    + entity.relationships.filter { own in !inherited.relationships.contains { $0.name == own.name } }
                result.uniquenessConstraints = inherited.uniquenessConstraints
                    + entity.uniquenessConstraints.filter { !inherited.uniquenessConstraints.contains($0) }
            }
            done[entity.name] = result
            return result
        }
        return ModelDescription(entities: entities.map { resolve($0, [$0.name]) })
    }

    /// The properties `entity` declares itself: those its parent does not have (all, for a root entity).
    public func declaredProperties(of entity: EntityDescription) -> (attributes: [AttributeDescription], relationships: [RelationshipDescription]) {
        guard let parent = entity.parent.flatMap(self.entity(named:)) else { return (entity.attributes, entity.relationships) }
        return (entity.attributes.filter { a in !parent.attributes.contains { $0.name == a.name } },
                entity.relationships.filter { r in !parent.relationships.contains { $0.name == r.name } })
    }
}

extension EntityDescription {
    /// The attribute named `name`.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The relationship named `name`.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The entity's global identifier across synced stores: its first `uuid` attribute.
    public var globalIdentifier: AttributeDescription? {
        attributes.first { $0.type == .uuid }
    }
}

/// One version of a store's model (`store.models: { v1: ..., v2: ... }`), as an app's `.xcdatamodeld`
/// holds several `.xcdatamodel` versions.
public struct ModelVersion: Sendable, Hashable, Codable {
    /// The version's name in the file (`v1`).
    public var name: String
    /// Its entities.
    public var model: ModelDescription

    public init(name: String, model: ModelDescription) {
        self.name = name
        self.model = model
    }
}
