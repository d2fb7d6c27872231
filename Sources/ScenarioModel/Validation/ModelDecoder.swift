import Basics
import Foundation
import SharedStore

/// Decodes a model (`model:`, entity names mapped to their properties) and a model's versions (`models:`).
///
/// It keeps no state of its own: everything it finds wrong goes to the file's `NodeDecoder`, so a
/// scenario's store section and a file that holds only a model read models the same way.
struct ModelDecoder {
    /// The error sink and typed reads of the file the model is in.
    let decoder: NodeDecoder

    /// `models: { v1: { Note: ... }, v2: { Note: ... } }`: the versions, oldest first, each a model; every
    /// later version must be one Core Data can migrate an earlier one to without a mapping model.
    func decodeVersions(_ node: YAMLNode) -> [ModelVersion] {
        guard let map = MappingReader(node, "the model versions (each name mapped to its entities), oldest first", decoder)
        else { return [] }
        guard map.pairs.count >= 2 else {
            decoder.error("models: declares the versions of a model that changed, so it needs two or more; "
                + "with one, write it under model:.", at: node)
            return []
        }
        var versions: [(ModelVersion, YAMLNode)] = []
        for pair in map.pairs {
            guard let name = decoder.name(pair.key, "a version name like v1") else { continue }
            guard let model = decodeModel(pair.value) else { continue }
            if model.hasInheritance {
                decoder.error("model versions with sub-entities are not supported yet (SharedStore does not migrate them); "
                    + "declare one model under model:.", at: pair.value)
                continue
            }
            for (earlier, _) in versions {
                checkLightweight(from: earlier, to: ModelVersion(name: name, model: model), at: pair.value)
            }
            versions.append((ModelVersion(name: name, model: model), pair.value))
        }
        return versions.map(\.0)
    }

    /// Errors for the changes from `old` to `new` that Core Data's inferred (lightweight) mapping cannot
    /// make: an attribute's type, a property turned between attribute and relationship, a to-many made
    /// to-one, a relationship pointed at another entity. Added and removed entities and properties, new
    /// defaults, and a to-one made to-many are fine.
    private func checkLightweight(from old: ModelVersion, to new: ModelVersion, at node: YAMLNode) {
        for entity in new.model.entities {
            guard let before = old.model.entities.first(where: { $0.name == entity.name }) else { continue }
            let at = propertyNode(entity.name, in: node)
            func kind(_ entity: EntityDescription, _ name: String) -> String? {
                if let attribute = entity.attributes.first(where: { $0.name == name }) { return attribute.type.rawValue }
                if let relationship = entity.relationships.first(where: { $0.name == name }) {
                    return relationship.isToMany ? "[\(relationship.destination)]" : relationship.destination
                }
                return nil
            }
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                guard let was = kind(before, name), let now = kind(entity, name), was != now else { continue }
                // A to-one made to-many (of the same entity) is inferred, Apple's guide says; not the reverse.
                if now == "[\(was)]" { continue }
                decoder.error("\(entity.name).\(name) is \(was) in \(old.name) and \(now) in \(new.name): Core Data's "
                    + "lightweight migration cannot infer that change (it needs a mapping model); add a new property "
                    + "instead, and remove the old one.", at: at(name) ?? node)
            }
        }
    }

    /// Finds the node of `entity.property` in a version's YAML, for errors.
    private func propertyNode(_ entity: String, in version: YAMLNode) -> (String) -> YAMLNode? {
        let properties = version.pairs?.first { $0.key.scalar == entity }?.value.pairs ?? []
        return { name in properties.first { $0.key.scalar == name }?.value }
    }

    /// Decodes the entities, then infers inverses. Entities whose properties have errors are kept (with
    /// the properties that decoded), so steps naming them are not reported a second time.
    func decodeModel(_ node: YAMLNode) -> ModelDescription? {
        guard let map = MappingReader(node, "the model (entity names mapped to their properties)", decoder) else {
            return nil
        }
        guard !map.pairs.isEmpty else {
            decoder.error("the model declares no entity; add one, like Note: { title: string }.", at: node)
            return nil
        }
        if map.pairs.count > Limits.entities {
            decoder.error("\(map.pairs.count) entities are declared; a model may have at most \(Limits.entities).",
                          at: map.pairs[Limits.entities].key)
            return nil
        }
        let entityNames = map.keys
        var entities: [EntityDescription] = []
        for pair in map.pairs {
            guard let name = pair.key.scalar else { continue }
            if !ModelDecoder.isTypeName(name) {
                decoder.error("the entity name '\(name)' must start with an uppercase letter and hold only letters "
                    + "and digits, as Core Data requires; write it like \(name.prefix(1).uppercased() + name.dropFirst()).",
                    at: pair.key)
            }
            entities.append(decodeEntity(name, pair.value, entityNames: entityNames))
        }
        let before = decoder.errors.count
        checkInheritance(&entities, map)
        let namesInverses = entities.contains { $0.relationships.contains { $0.inverse != nil } }
        let model = ModelDescription(entities: ModelDecoder.inferringInverses(entities)).inheriting()
        // What only the compiled model tells (two sub-entities of one family with one property name, an
        // inverse that does not point back), once the declarations themselves are right.
        if model.hasInheritance || namesInverses || model.entities.contains(where: { !$0.uniquenessConstraints.isEmpty }),
           decoder.errors.count == before {
            do { _ = try Model(model) } catch {
                let entityNode = map.pairs.first { $0.key.scalar == error.entity }
                let at = error.property.flatMap { name in entityNode?.value.pairs?.first { $0.key.scalar == name }?.key }
                    ?? entityNode?.value.pairs?.first { $0.key.scalar == "uniqueness-constraints" }?.value
                decoder.error("\(error).", at: at ?? entityNode?.key ?? node)
            }
        }
        return model
    }

    /// A parent entity that leads back to the entity is an error at its `parent-entity:`, and is dropped; so
    /// is a property a sub-entity declares again (it inherits it).
    private func checkInheritance(_ entities: inout [EntityDescription], _ map: MappingReader) {
        let entityNodes = Dictionary(map.pairs.compactMap { pair in pair.key.scalar.map { ($0, pair.value) } }, uniquingKeysWith: { a, _ in a })
        func node(_ entity: String, _ key: String) -> YAMLNode? {
            entityNodes[entity]?.pairs?.first { $0.key.scalar == key }?.key
        }
        let position = Dictionary(entities.indices.map { (entities[$0].name, $0) }, uniquingKeysWith: { a, _ in a })
        for i in entities.indices where entities[i].parent != nil {
            var seen: Set<String> = [entities[i].name]
            var current = entities[i].parent
            while let name = current, let p = position[name] {
                let parent = entities[p]
                guard seen.count <= Limits.entityDepth else {
                    decoder.error("\(entities[i].name) inherits through more than \(Limits.entityDepth) parent entities; "
                        + "flatten the hierarchy.", at: node(entities[i].name, "parent-entity") ?? map.node)
                    entities[i].parent = nil
                    break
                }
                guard seen.insert(name).inserted else {
                    decoder.error("\(entities[i].name)'s parent entities lead back to it: an entity cannot inherit from "
                        + "itself.", at: node(entities[i].name, "parent-entity") ?? map.node)
                    entities[i].parent = nil
                    break
                }
                let own = Set(entities[i].attributes.map(\.name) + entities[i].relationships.map(\.name))
                for property in parent.attributes.map(\.name) + parent.relationships.map(\.name) where own.contains(property) {
                    guard let at = node(entities[i].name, property) else { continue }
                    decoder.error("\(entities[i].name) inherits '\(property)' from \(name); remove it here (a sub-entity has "
                        + "its parent's properties and adds its own).", at: at)
                    entities[i].attributes.removeAll { $0.name == property }
                    entities[i].relationships.removeAll { $0.name == property }
                }
                current = parent.parent
            }
        }
    }

    /// `[[name, folder], [code]]`: each constraint a list of attribute names (a single name for a list of one).
    private func decodeConstraints(_ node: YAMLNode) -> [[String]] {
        let example = "uniqueness-constraints: [[name, folder]]"
        guard let items = node.items else {
            decoder.error("expected a list of uniqueness constraints, each a list of attribute names (\(example)), but found "
                + "\(node.shortDescription).", at: node)
            return []
        }
        var result: [[String]] = []
        for item in items {
            let names: [String]
            if item.scalar != nil {
                names = decoder.string(item, "an attribute name").map { [$0] } ?? []
            } else if let list = item.items {
                names = list.compactMap { decoder.string($0, "an attribute name") }
            } else {
                decoder.error("expected a list of attribute names (\(example)), but found \(item.shortDescription).", at: item)
                continue
            }
            if names.isEmpty { decoder.error("a uniqueness constraint names at least one attribute: \(example).", at: item) }
            else { result.append(names) }
        }
        return result
    }

    private func decodeEntity(_ name: String, _ node: YAMLNode, entityNames: [String]) -> EntityDescription {
        var entity = EntityDescription(name: name, attributes: [])
        guard let map = MappingReader(node, "the properties of \(name) (name: type)", decoder) else { return entity }
        for pair in map.pairs {
            guard let property = pair.key.scalar else { continue }
            // Xcode's "Parent Entity" and "Abstract Entity": keys no property can have.
            if property == "parent-entity" {
                guard let parent = decoder.string(pair.value, "the name of the parent entity, like Book") else { continue }
                if parent == name {
                    decoder.error("\(name) cannot be its own parent entity.", at: pair.value)
                } else if entityNames.contains(parent) {
                    entity.parent = parent
                } else {
                    decoder.error("unknown parent entity '\(parent)'" + Suggestion.hint(for: parent, in: entityNames), at: pair.value)
                }
                continue
            }
            if property == "abstract-entity" {
                entity.isAbstract = decoder.bool(pair.value, "abstract-entity") ?? false
                continue
            }
            // Xcode's "Constraints" list: `uniqueness-constraints: [[name, folder], [code]]`.
            if property == "uniqueness-constraints" {
                entity.uniquenessConstraints = decodeConstraints(pair.value)
                continue
            }
            if !ModelDecoder.isPropertyName(property) {
                decoder.error("the property name '\(property)' must start with a lowercase letter and hold only "
                    + "letters and digits, as Core Data requires.", at: pair.key)
            }
            guard let declaration = propertyDeclarationText(pair.value) else { continue }
            switch PropertyDeclaration.parse(declaration, entityNames: entityNames) {
            case let .success(.attribute(type, optional, defaultText, unique)):
                var attribute = AttributeDescription(name: property, type: type, isOptional: optional, isUnique: unique)
                if let defaultText {
                    attribute.defaultValue = defaultValue(defaultText, for: attribute, at: pair.value)
                }
                entity.attributes.append(attribute)
            case let .success(.relationship(destination, toMany, optional, rule, inverse, ordered)):
                entity.relationships.append(RelationshipDescription(
                    name: property, destination: destination, isToMany: toMany, isOptional: optional, inverse: inverse,
                    deleteRule: rule, isOrdered: ordered))
            case let .failure(failure):
                decoder.error(failure.message, at: pair.value)
            }
        }
        return entity
    }

    /// The declaration's text; YAML reads `[Tag]` as a list of one, which is the to-many form. A
    /// relationship may also be a mapping, `{ to: [Note], delete-rule: cascade, inverse: folder, ordered: true }`,
    /// read as the text `[Note] cascade inverse folder ordered`.
    private func propertyDeclarationText(_ node: YAMLNode) -> String? {
        if node.pairs != nil {
            guard let map = MappingReader(node, "a relationship", decoder) else { return nil }
            map.rejectUnknownKeys(["to", "delete-rule", "inverse", "ordered"], in: "a relationship")
            guard let to = map["to"] else {
                decoder.error("a relationship written as a mapping names its destination under to:, like "
                    + "{ to: [Note], delete-rule: cascade }.", at: node)
                return nil
            }
            guard var text = propertyDeclarationText(to) else { return nil }
            if let rule = map["delete-rule"] {
                guard let word = decoder.string(rule, "a delete rule"), let parsed = DeleteRule(rawValue: word) else {
                    let rules = DeleteRule.allCases.map(\.rawValue)
                    let near = rule.scalar.flatMap { Suggestion.nearest(to: $0, in: rules) }
                    decoder.error("delete-rule is one of \(rules.joined(separator: ", "))\(near.map { "; did you mean '\($0)'?" } ?? ".")", at: rule)
                    return nil
                }
                text += " \(parsed.rawValue)"
            }
            if let inverse = map["inverse"] {
                guard let name = decoder.string(inverse, "the name of the inverse relationship") else { return nil }
                text += " inverse \(name)"
            }
            if let ordered = map["ordered"] {
                guard let value = decoder.bool(ordered, "ordered") else { return nil }
                if value { text += " ordered" }
            }
            return text
        }
        if let items = node.items {
            guard items.count == 1, let destination = items[0].scalar, !items[0].isNull else {
                decoder.error("a to-many relationship names one entity, like [Tag], but found \(node.shortDescription).",
                              at: node)
                return nil
            }
            return "[\(destination)]"
        }
        return decoder.string(node, "a type like string, int?, bool = false or [Tag]")
    }

    private func defaultValue(_ text: String, for attribute: AttributeDescription, at node: YAMLNode) -> Value? {
        var unquoted = text, quoted = false
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            unquoted = String(text.dropFirst().dropLast())
            quoted = true
        }
        let valueNode = YAMLNode(kind: .scalar(unquoted, quoted: quoted), line: node.line, column: node.column)
        let value = decoder.attributeValue(valueNode, for: attribute, entity: nil)
        return value == .null ? nil : value
    }

    /// Pairs each relationship with its inverse: the one it names (`inverse folder`), or the one that names
    /// it; otherwise, when exactly one relationship leads each way, that one.
    static func inferringInverses(_ entities: [EntityDescription]) -> [EntityDescription] {
        var entities = entities
        // A named inverse pairs both ways: the other side names this one back unless it names its own.
        for entity in entities {
            for relationship in entity.relationships {
                guard let inverse = relationship.inverse,
                      let d = entities.firstIndex(where: { $0.name == relationship.destination }),
                      let r = entities[d].relationships.firstIndex(where: { $0.name == inverse }),
                      entities[d].relationships[r].inverse == nil, entities[d].relationships[r].destination == entity.name
                else { continue }
                entities[d].relationships[r].inverse = relationship.name
            }
        }
        return entities.map { entity in
            var entity = entity
            for index in entity.relationships.indices where entity.relationships[index].inverse == nil {
                let relationship = entity.relationships[index]
                let outgoing = entity.relationships.filter { $0.destination == relationship.destination }
                guard outgoing.count == 1,
                      let destination = entities.first(where: { $0.name == relationship.destination }) else { continue }
                let incoming = destination.relationships.filter {
                    $0.destination == entity.name && !(destination.name == entity.name && $0.name == relationship.name)
                }
                if incoming.count == 1, incoming[0].inverse == nil || incoming[0].inverse == relationship.name {
                    entity.relationships[index].inverse = incoming[0].name
                }
            }
            return entity
        }
    }

    /// `Note`: an uppercase ASCII letter, then letters and digits.
    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isUppercase else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// `title`: a lowercase ASCII letter, then letters and digits.
    static func isPropertyName(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLowercase else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
