import Basics
import Foundation

/// Parsing the attribute type syntax of Docs/ScenarioLanguage.md:
/// `string`, `string?`, `bool = false`, `[Tag]`, `Note?`, `Note`.
extension ModelDescription {
    /// Builds a model from entities given as `(name, [(property, type syntax)])`, in order.
    ///
    /// A type that is not an attribute type names a relationship: `[Tag]` is to-many, `Note?` and `Note` to-one.
    /// - Throws: `ModelError` naming the entity and property whose syntax is invalid. Whether relationship
    ///   destinations exist is checked by `Model(_:)`.
    public static func parse(_ entities: [(name: String, properties: [(name: String, type: String)])])
        throws(ModelError) -> ModelDescription
    {
        var result: [EntityDescription] = []
        for (entityName, properties) in entities {
            var entity = EntityDescription(name: entityName)
            for (name, syntax) in properties {
                switch try PropertySyntax.parse(syntax, entity: entityName, property: name) {
                case .attribute(let type, let optional, let defaultValue):
                    entity.attributes.append(
                        AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue))
                case .relationship(let destination, let toMany):
                    entity.relationships.append(
                        RelationshipDescription(name: name, destination: destination, isToMany: toMany))
                }
            }
            result.append(entity)
        }
        return ModelDescription(entities: result)
    }
}

/// One property's type syntax, parsed.
enum PropertySyntax: Equatable {
    case attribute(AttributeType, optional: Bool, defaultValue: Value?)
    case relationship(destination: String, toMany: Bool)

    static func parse(_ syntax: String, entity: String, property: String) throws(ModelError) -> PropertySyntax {
        var text = syntax.trimmingCharacters(in: .whitespaces)
        var defaultText: String?
        if let eq = text.firstIndex(of: "=") {
            defaultText = String(text[text.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            text = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
            if defaultText!.count >= 2, let first = defaultText!.first, first == "\"" || first == "'",
                defaultText!.last == first
            {
                defaultText = String(defaultText!.dropFirst().dropLast())
            }
        }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]"), text.count > 2 else {
                throw ModelError(entity: entity, property: property, reason: "`\(syntax)` is missing its closing `]`")
            }
            let destination = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
            guard isIdentifier(destination) else {
                throw ModelError(entity: entity, property: property, reason: "`\(syntax)` does not name an entity")
            }
            guard defaultText == nil else {
                throw ModelError(entity: entity, property: property, reason: "a relationship cannot have a default value")
            }
            return .relationship(destination: destination, toMany: true)
        }
        let optional = text.hasSuffix("?")
        if optional { text.removeLast() }
        guard isIdentifier(text) else {
            throw ModelError(entity: entity, property: property, reason: "`\(syntax)` is not a type (expected one of \(AttributeType.allCases.map(\.rawValue).joined(separator: ", ")), an entity, or [Entity])")
        }
        if let type = AttributeType(rawValue: text) {
            var defaultValue: Value?
            if let defaultText {
                do { defaultValue = try Value.from(scalar: defaultText, as: type) } catch {
                    throw ModelError(entity: entity, property: property, reason: "default value \(error)")
                }
            }
            return .attribute(type, optional: optional, defaultValue: defaultValue)
        }
        if text.first?.isLowercase == true {
            throw ModelError(entity: entity, property: property, reason: "unknown type `\(text)` (expected one of \(AttributeType.allCases.map(\.rawValue).joined(separator: ", ")), or an entity name)")
        }
        guard defaultText == nil else {
            throw ModelError(entity: entity, property: property, reason: "a relationship cannot have a default value")
        }
        return .relationship(destination: text, toMany: false)
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
