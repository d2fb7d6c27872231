import Basics

/// The shared store a scenario declares: its app group, its file name and its model. The model is
/// written under `store.model` as `Entity: { property: type }`, where a type is `string`, `int`,
/// `double`, `bool`, `date` or `uuid` (`?` optional, `= value` default), `[Entity]` (to-many) or
/// `Entity?` / `Entity` (to-one); it decodes to the `ModelDescription` SharedStore compiles.
public struct StoreDescription: Sendable, Hashable, Codable {
    /// The app-group identifier; its container holds the store.
    public var group: String
    /// The store's file name without extension.
    public var name: String
    /// The entities, in the order the file declares them.
    public var model: ModelDescription

    /// Creates a store description.
    public init(group: String, name: String, model: ModelDescription) {
        self.group = group
        self.name = name
        self.model = model
    }
}

extension EntityDescription {
    /// The values a new object of this entity gets: those given, then defaults, null for optional
    /// attributes, a UUID derived from the object id for `uuid` attributes, zero for the rest.
    public func valuesForInsert(objectID: String, explicit: [String: Value]) -> [String: Value] {
        var values: [String: Value] = [:]
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
