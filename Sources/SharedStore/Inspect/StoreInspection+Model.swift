import Basics

extension StoreInspection {
    /// The model the store's schema shows, for a scenario that starts from the store without giving one
    /// (`store: { from: }`): each entity with its attribute columns (lowercased, as Core Data's column
    /// names are upper-cased) and the relationships the schema holds; the two sides of a join table are
    /// each other's inverse.
    ///
    /// Types come from the declared column types: `INTEGER` is `int` (booleans too), `FLOAT` and
    /// `DECIMAL` are `double`, `TIMESTAMP` is `date`, `VARCHAR` is `string`; a `BLOB` column (binary data,
    /// a UUID, a transformable) is left out, as the scenario language has no type that is surely its.
    /// Every attribute is optional, which the schema cannot tell.
    /// - Throws: `ModelInferenceError` for what the scenario language cannot describe: sub-entities, a
    ///   relationship whose destination the schema does not tell, entities numbered otherwise than
    ///   alphabetically.
    ///
    /// A store SharedStore made keeps its exact model (`storedModel`), which is returned instead.
    public func inferredModel() throws(ModelInferenceError) -> ModelDescription {
        if let storedModel { return storedModel }
        if let sub = entities.first(where: { $0.parent != nil }) {
            throw ModelInferenceError(message: "\(sub.name) is a sub-entity of \(sub.parent!), and the scenario language has no "
                + "sub-entities yet; give the model under model: without them, or start from a store without inheritance")
        }
        guard !entities.isEmpty else { throw ModelInferenceError(message: "the store has no entities") }
        let sorted = entities.map(\.name).sorted()
        if entities.map(\.name) != sorted || entities.map(\.number) != Array(1...Int64(entities.count)) {
            throw ModelInferenceError(message: "its entities are numbered \(entities.map { "\($0.name) \($0.number)" }.joined(separator: ", ")), "
                + "not from 1 in alphabetical order as SharedStore numbers them")
        }
        if let odd = entities.first(where: { !PropertySyntax.isIdentifier($0.name) || !$0.name.allSatisfy(\.isASCII) }) {
            throw ModelInferenceError(message: "the entity name '\(odd.name)' is not an ASCII identifier, which the scenario language needs")
        }
        var descriptions: [EntityDescription] = []
        for entity in entities {
            // A column whose lowercased name is no identifier (`Z1ABC`) cannot be named in a scenario: left out.
            let attributes = entity.attributes.filter { PropertySyntax.isIdentifier($0.name) }.compactMap { attribute -> AttributeDescription? in
                let type: AttributeType? = switch attribute.type {
                case "int": .int
                case "double", "decimal": .double
                case "date": .date
                case "string": .string
                default: nil
                }
                return type.map { AttributeDescription(name: attribute.name, type: $0, isOptional: true, preservesValueInHistoryOnDeletion: false) }
            }
            var relationships: [RelationshipDescription] = []
            for relationship in entity.relationships where PropertySyntax.isIdentifier(relationship.name) {
                guard let destination = relationship.destination else {
                    throw ModelInferenceError(message: "the schema does not tell where \(entity.name).\(relationship.name) points "
                        + "(column \(relationship.storage)); give the model under model:")
                }
                // A join table's other side is the inverse.
                let inverse = relationship.toMany
                    ? entities.first { $0.name == destination }?.relationships
                        .first { $0.toMany && $0.storage == relationship.storage && ($0.name != relationship.name || destination != entity.name) }?.name
                    : nil
                relationships.append(RelationshipDescription(name: relationship.name, destination: destination,
                                                              isToMany: relationship.toMany, inverse: inverse))
            }
            descriptions.append(EntityDescription(name: entity.name, attributes: attributes, relationships: relationships))
        }
        return ModelDescription(entities: descriptions)
    }
}

/// Why a store's schema gives no model a scenario can use.
public struct ModelInferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
