import Basics

/// An entity of a model, looked up by name once.
///
/// Inserting through a key skips finding the entity by name on every call, as a Core Data subclass's
/// `entity()` does for `init(context:)`. Get one from `Model.entityKey(_:)`; it fits only that model.
/// Plain data (no strings inside): copying one costs nothing.
public struct EntityKey: Hashable, Sendable, CustomStringConvertible {
    /// The serial of the model the key was made from.
    let model: UInt64
    /// The entity's position in the model.
    let index: Int
    let interned: InternedString

    /// The entity's name.
    public var name: String { interned.string }

    public var description: String { name }
}

/// An attribute of an entity, looked up by name once (Core Data's `NSAttributeDescription`, which a
/// generated `@NSManaged` accessor reaches without a name lookup).
///
/// Setting or reading a value through a key skips finding the attribute by name, and spares the caller
/// building (and hashing) a `[String: Value]` dictionary. Get one from
/// `Model.attributeKey(_:of:)`; it fits only that model's entity. Plain data (no strings inside): copying
/// one costs nothing.
public struct AttributeKey: Hashable, Sendable, CustomStringConvertible {
    /// The serial of the model the key was made from.
    let model: UInt64
    /// The entity's position in the model.
    let entityIndex: Int32
    /// The attribute's slot in its entity's values.
    let slot: Int32
    let entityName: InternedString
    let attributeName: InternedString
    /// The attribute's type.
    public let type: AttributeType

    /// The name of the attribute's entity.
    public var entity: String { entityName.string }
    /// The attribute's name.
    public var name: String { attributeName.string }

    /// `Entity.attribute`.
    public var description: String { "\(entity).\(name)" }
}

extension Model {
    /// The key of the entity named `name`.
    /// - Throws: `StoreError.unknownEntity`.
    public func entityKey(_ name: String) throws(StoreError) -> EntityKey {
        let info = try entity(named: name)
        return EntityKey(model: serial, index: info.index, interned: InternedString(info.name))
    }

    /// The key of the attribute `name` of the entity `entity` (relationships have no keys).
    /// - Throws: `StoreError.unknownEntity`, `.unknownProperty`.
    public func attributeKey(_ name: String, of entity: String) throws(StoreError) -> AttributeKey {
        let info = try self.entity(named: entity)
        let slot = try info.attributeSlot(name)
        return AttributeKey(model: serial, entityIndex: Int32(info.index), slot: Int32(slot),
                            entityName: InternedString(info.name), attributeName: InternedString(info.slots[slot].name),
                            type: info.slotTypes[slot]!)
    }

    /// The entity `key` stands for, when it was made from this model.
    func entity(_ key: EntityKey) throws(StoreError) -> EntityInfo {
        guard key.model == serial, entities.indices.contains(key.index) else {
            throw .invalidState("entity key \(key) belongs to another model than the store's")
        }
        return entities[key.index]
    }

    /// The entity of the attribute `key` stands for, when it was made from this model.
    func entity(of key: AttributeKey) throws(StoreError) -> EntityInfo {
        guard key.model == serial, entities.indices.contains(Int(key.entityIndex)) else {
            throw .invalidState("attribute key \(key) belongs to another model than the store's")
        }
        return entities[Int(key.entityIndex)]
    }

    /// The slot `key` stands for in `entity` of the model identified by `model`.
    static func slot(_ key: AttributeKey, in entity: EntityInfo, model: UInt64) throws(StoreError) -> Int {
        guard key.model == model else {
            throw .invalidState("attribute key \(key) belongs to another model than the store's")
        }
        guard Int(key.entityIndex) == entity.index else {
            throw .unknownProperty(entity: entity.name, property: key.description)
        }
        return Int(key.slot)
    }
}
