import Basics

extension ObjectContext {
    /// Inserts a new object of `entity`, with the values `body` sets over its defaults, and shows it in the
    /// view: `insert(_:values:)` without looking names up, hashing them or building a dictionary (for bulk
    /// inserts; Core Data's `Note(context:)` and its generated accessors).
    /// ```swift
    /// let note = try model.entityKey("Note")
    /// let title = try model.attributeKey("title", of: "Note")
    /// try context.insert(note) { $0[title] = "A" }
    /// ```
    /// Nothing is inserted when `body` throws or sets a value that does not fit.
    /// - Returns: its temporary ID (permanent after `save()`).
    /// - Throws: `StoreError.unknownProperty` for a key of another entity (its property named
    ///   `Entity.attribute`), `.typeMismatch`, `.invalidState` for a key of another model (keys fit the
    ///   `Model` instance they came from), or what `body` throws.
    @discardableResult
    public func insert(_ entity: EntityKey, _ body: (inout NewObjectValues) throws(StoreError) -> Void = { _ in })
        throws(StoreError) -> ObjectID
    {
        let info = try core.model.entity(entity)
        if info.family.isAbstract { throw .abstractEntity(info.name) }
        var values = NewObjectValues(entity: info, model: entity.model, row: info.initialValues.fresh())
        try body(&values)
        if let error = values.error { throw error }
        return insertObject(info, values.row)
    }

    /// One attribute of the object, firing its fault if needed (`value(_:of:)` without the name lookups).
    /// - Throws: `StoreError.notFound` when the row is gone and `shouldDeleteInaccessibleFaults` is false;
    ///   `.unknownProperty` for a key of another entity; `.invalidState` for a key of another model;
    ///   `.invalidObjectID` for an ID of another store.
    public func value(_ key: AttributeKey, of id: ObjectID) throws(StoreError) -> Value {
        let info = try entityInfo(of: id, key: key)
        let slot = Int(key.slot)
        let object = try fired(id, info)
        return object.hasValueChanges ? object.current[slot] : object.values[slot]
    }

    /// The entity of `id`, which `key` must be an attribute of: `entityInfo(of:)` without finding the
    /// entity by name.
    private func entityInfo(of id: ObjectID, key: AttributeKey) throws(StoreError) -> EntityInfo {
        guard id.store == core.store else { return try entityInfo(of: id) }  // throws the ID's error
        let info = try core.model.entity(of: key)
        guard info.name == id.entity else {
            // An attribute of a parent entity is an attribute of its sub-entities, at the same slot
            // (inherited attributes come first).
            let own = try entityInfo(of: id)  // throws for an entity the model lacks
            guard core.model.isKind(own.index, of: info) else { throw .unknownProperty(entity: id.entity, property: key.description) }
            return own
        }
        return info
    }

    /// Sets one attribute of an object (`setValue(_:forKey:of:)` without the name lookups).
    /// - Throws: `StoreError.notFound` when the object's row is gone or it is pending deletion;
    ///   `.unknownProperty`, `.typeMismatch`, `.invalidState`, `.invalidObjectID` as `value(_:of:)`.
    public func setValue(_ value: Value, for key: AttributeKey, of id: ObjectID) throws(StoreError) {
        let info = try entityInfo(of: id, key: key)
        let slot = Int(key.slot)
        let value = try checked(value, info, slot)
        let object = try editable(id)
        store(value, slot: slot, of: object)
        markUpdated(object)
    }
}

/// The values of an object being inserted (`ObjectContext.insert(_:_:)`), by attribute key.
public struct NewObjectValues {
    let entity: EntityInfo
    /// The serial of the store's model.
    let model: UInt64
    var row: [Value]
    /// The first value that did not fit: the insert throws it.
    var error: StoreError?

    /// The attribute's value: its default until set. A value of the wrong type, or a key of another
    /// entity or model, makes the insert throw.
    public subscript(key: AttributeKey) -> Value {
        mutating get { slot(key).map { row[$0] } ?? .null }
        set {
            guard let slot = slot(key) else { return }
            if let converted = newValue.converted(to: key.type) {
                row[slot] = converted
            } else if error == nil {
                error = .typeMismatch(entity: entity.name, property: key.name, value: newValue, expected: key.type)
            }
        }
    }

    private mutating func slot(_ key: AttributeKey) -> Int? {
        if key.model == model && Int(key.entityIndex) == entity.index { return Int(key.slot) }
        do {
            return try Model.slot(key, in: entity, model: model)
        } catch {
            if self.error == nil { self.error = error }
            return nil
        }
    }
}
