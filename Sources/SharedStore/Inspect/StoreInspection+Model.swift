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
    /// - Throws: `ModelInferenceError` for what the scenario language cannot describe: a relationship whose
    ///   destination the schema does not tell, entities numbered otherwise than Core Data numbers them.
    ///
    /// Sub-entities (`Z_SUPER`) keep their parent; the columns of a family's table all go to its root entity
    /// (the schema does not tell which sub-entity declared one), which its sub-entities inherit.
    ///
    /// A store SharedStore made keeps its exact model (`storedModel`), which is returned instead.
    public func inferredModel() throws(ModelInferenceError) -> ModelDescription {
        try inferredModel(leavingOutUnresolved: false).model
    }

    /// The same, keeping the relationships whose destination the schema does not tell as `int` attributes
    /// (the key their column holds) instead of refusing the store; returns them (`Car.owner (column ZOWNER)`)
    /// with the model, for `import` to ask about.
    public func inferredModelLeavingOutUnresolved() throws(ModelInferenceError) -> (model: ModelDescription, leftOut: [String]) {
        try inferredModel(leavingOutUnresolved: true)
    }

    private func inferredModel(leavingOutUnresolved: Bool) throws(ModelInferenceError) -> (model: ModelDescription, leftOut: [String]) {
        if let storedModel { return (storedModel, []) }
        var leftOut: [String] = []
        guard !entities.isEmpty else { throw ModelInferenceError(message: "the store has no entities") }
        if let odd = entities.first(where: { !PropertySyntax.isIdentifier($0.name) || !$0.name.allSatisfy(\.isASCII) }) {
            throw ModelInferenceError(message: "the entity name '\(VisibleText.escaped(odd.name))' is not an ASCII identifier, which the scenario language needs")
        }
        var descriptions: [EntityDescription] = []
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for entity in entities {
            // A column whose lowercased name is no identifier (`Z1ABC`) cannot be named in a scenario: left out.
            var attributes = entity.attributes.filter { PropertySyntax.isIdentifier($0.name) }.compactMap { attribute -> AttributeDescription? in
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
                    if leavingOutUnresolved {
                        // Kept as what the column holds, the key of the row it points to, so the store still fits.
                        leftOut.append("\(entity.name).\(relationship.name) (column \(relationship.storage))")
                        if !attributes.contains(where: { $0.name == relationship.name }) {
                            attributes.append(AttributeDescription(name: relationship.name, type: .int, isOptional: true,
                                                                   preservesValueInHistoryOnDeletion: false))
                        }
                        continue
                    }
                    throw ModelInferenceError(message: "the schema does not tell where \(entity.name).\(relationship.name) points "
                        + "(column \(relationship.storage)); give the model under model:")
                }
                // A join table's other side is the inverse.
                let inverse = relationship.toMany
                    ? byName[destination]?.relationships
                        .first { $0.toMany && $0.storage == relationship.storage && ($0.name != relationship.name || destination != entity.name) }?.name
                    : nil
                relationships.append(RelationshipDescription(name: relationship.name, destination: destination,
                                                              isToMany: relationship.toMany, inverse: inverse,
                                                              isOrdered: relationship.isOrdered))
            }
            // Its unique indexes are its uniqueness constraints (of attributes the model has): one attribute's
            // is that attribute's, several attributes' are the entity's.
            var constraints: [[String]] = []
            for constraint in entity.constraints where !constraint.isEmpty
                && constraint.allSatisfy({ name in attributes.contains { $0.name == name } }) {
                if constraint.count == 1, let index = attributes.firstIndex(where: { $0.name == constraint[0] }) {
                    attributes[index].isUnique = true
                } else if !constraints.contains(constraint) {
                    constraints.append(constraint)
                }
            }
            descriptions.append(EntityDescription(name: entity.name, attributes: attributes, relationships: relationships,
                                                  parent: entity.parent, uniquenessConstraints: constraints))
        }
        // A sub-entity's columns are in its root's table, where the schema cannot tell whose they are: the
        // root has them all, and its sub-entities inherit them (through at most the language's depth, so
        // that what they inherit stays the size of the schema times that depth).
        let declared = ModelDescription(entities: descriptions)
        if let deep = declared.entityInheritingTooDeeply {
            throw ModelInferenceError(message: "\(deep) inherits through more than \(ModelDescription.maximumInheritanceDepth) parent "
                + "entities (Z_SUPER), more than the scenario language allows")
        }
        let model = declared.inheriting()
        let compiled: Model
        do { compiled = try Model(model) } catch {
            throw ModelInferenceError(message: "the model its schema shows is not one SharedStore can open: \(error)")
        }
        let numbers = entities.map { entity in compiled.entityNumber(of: entity.name) }
        if numbers != entities.map(\.number) {
            // The first few are enough to see it; a store may have thousands.
            let shown = entities.prefix(20).map { "\($0.name) \($0.number)" }.joined(separator: ", ")
                + (entities.count > 20 ? " and \(entities.count - 20) more" : "")
            throw ModelInferenceError(message: "its entities are numbered \(shown), "
                + "not as Core Data and SharedStore number them (from 1, root entities in alphabetical order, each followed by its sub-entities)")
        }
        return (model, leftOut)
    }
}

/// Why a store's schema gives no model a scenario can use.
public struct ModelInferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
