import Basics
import SharedStore

/// The shared store a scenario declares: its app group, its file name and its model. The model is
/// written under `store.model` as `Entity: { property: type }`, where a type is `string`, `int`,
/// `double`, `bool`, `date` or `uuid` (`?` optional, `= value` default), `[Entity]` (to-many) or
/// `Entity?` / `Entity` (to-one); it decodes to the `ModelDescription` SharedStore compiles. A store
/// written with several model versions declares them under `store.models`, oldest first.
public struct StoreDescription: Sendable, Hashable, Codable {
    /// The app-group identifier; its container holds the store.
    public var group: String
    /// The store's file name without extension.
    public var name: String
    /// The entities, in the order the file declares them: the newest version's with `store.models`.
    public var model: ModelDescription
    /// The model versions of `store.models`, oldest first (the last is `model`); empty with `store.model`.
    public var versions: [ModelVersion]
    /// `from:`: the store file every run starts from, when not an empty store.
    public var from: StoreSeed?

    /// Creates a store description.
    public init(group: String, name: String, model: ModelDescription, versions: [ModelVersion] = []) {
        self.group = group
        self.name = name
        self.model = model
        self.versions = versions
    }

    /// The model of the version named `version` (a process's `model` setting); the newest for nil or a
    /// name that is no version (validation refuses those).
    public func model(version: String?) -> ModelDescription {
        versions.first { $0.name == version }?.model ?? model
    }

    /// The versions older than `version` (the newest when nil): the ones a process opening the store with
    /// `version` can migrate from, oldest first.
    public func versions(before version: String?) -> [ModelVersion] {
        guard let index = versions.firstIndex(where: { $0.name == version }) ?? versions.indices.last else { return [] }
        return Array(versions[..<index])
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

/// `store: { from: }`: a store file (one taken off a device, say) that every run starts from: copied, with
/// its `-wal` and `-shm`, into the run's group container before any process launches.
public struct StoreSeed: Sendable, Hashable, Codable {
    /// The `.sqlite` file, as an absolute path (the file gives it relative to itself).
    public var path: String
    /// Scenario ids for rows already in the store (`objects: { n1: Note 12 }`), so steps can name them.
    public var objects: [String: StoreRow]

    /// Creates a seed.
    public init(path: String, objects: [String: StoreRow] = [:]) {
        self.path = path
        self.objects = objects
    }
}
