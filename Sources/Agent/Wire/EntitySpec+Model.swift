import SharedStore

extension Array where Element == EntitySpec {
    /// The model SharedStore compiles from these entities (the scenario's own attribute syntax).
    public func compiledModel() throws -> Model {
        let description = try ModelDescription.parse(map { entity in
            (name: entity.name, properties: entity.properties.map { (name: $0.name, type: $0.syntax) })
        })
        return try Model(description)
    }
}
