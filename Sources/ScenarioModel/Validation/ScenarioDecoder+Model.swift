import Basics
import Foundation
import SharedStore

/// Decoding `store:` and its model.
extension ScenarioDecoder {
    func decodeStore(_ node: YAMLNode) -> StoreDescription? {
        guard let map = MappingReader(node, "the store", decoder) else { return nil }
        map.rejectUnknownKeys(["group", "name", "model", "models", "from"], in: "the store")
        let group = map.required("group", in: "the store", example: "group: group.example.notes")
            .flatMap { decoder.name($0, "an app-group identifier like group.example.notes") }
        let name = map.required("name", in: "the store", example: "name: Notes")
            .flatMap { decoder.name($0, "the store's file name, like Notes") }
        var versions: [ModelVersion] = []
        var model: ModelDescription?
        if let modelsNode = map["models"] {
            if let single = map["model"] {
                decoder.error("the store has both model: and models:; give one model under model:, or every version "
                    + "under models:.", at: single)
            }
            versions = decodeModelVersions(modelsNode)
            model = versions.last?.model
        } else if map["from"] != nil, map["model"] == nil {
            model = nil  // read off the file below
        } else {
            model = map.required("model", in: "the store", example: "model: { Note: { title: string } }")
                .flatMap(decodeModel)
        }
        self.modelVersions = versions
        var seed: StoreSeed?
        if let fromNode = map["from"] {
            (seed, model) = decodeSeed(fromNode, given: model, inferring: map["model"] == nil && map["models"] == nil)
        }
        self.model = model
        guard let group, let name, let model else { return nil }
        var store = StoreDescription(group: group, name: name, model: model, versions: versions)
        store.from = seed
        return store
    }

    /// `models: { v1: { Note: ... }, v2: { Note: ... } }`: the versions, oldest first, each a model; every
    /// later version must be one Core Data can migrate an earlier one to without a mapping model.
    private func decodeModelVersions(_ node: YAMLNode) -> [ModelVersion] {
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
            if !ScenarioDecoder.isTypeName(name) {
                decoder.error("the entity name '\(name)' must start with an uppercase letter and hold only letters "
                    + "and digits, as Core Data requires; write it like \(name.prefix(1).uppercased() + name.dropFirst()).",
                    at: pair.key)
            }
            entities.append(decodeEntity(name, pair.value, entityNames: entityNames))
        }
        let before = decoder.errors.count
        checkInheritance(&entities, map)
        let namesInverses = entities.contains { $0.relationships.contains { $0.inverse != nil } }
        let model = ModelDescription(entities: ScenarioDecoder.inferringInverses(entities)).inheriting()
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
            if !ScenarioDecoder.isPropertyName(property) {
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
        let value = attributeValue(valueNode, for: attribute, entity: nil)
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

    /// Whether objects of `entity` may stand where `ancestor`'s are expected (it or a sub-entity of it).
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        entity == ancestor || model?.entity(entity, isKindOf: ancestor) == true
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

/// A property's type as the model writes it: `string`, `int?`, `bool = false`, `[Tag]`, `Note?`.
enum PropertyDeclaration: Equatable {
    case attribute(AttributeType, optional: Bool, defaultText: String?, unique: Bool)
    case relationship(destination: String, toMany: Bool, optional: Bool, deleteRule: DeleteRule, inverse: String?, ordered: Bool)

    struct Failure: Error, Equatable {
        var message: String
    }

    static func parse(_ text: String, entityNames: [String]) -> Result<PropertyDeclaration, Failure> {
        // A relationship's options after its type: a delete rule, `inverse name`, `ordered`, each at most once
        // (never after a default: `string = deny` is an attribute whose default is "deny").
        let tokens = text.contains("=") ? [] : text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let isOption = { (word: String) in DeleteRule(rawValue: word) != nil || word == "inverse" || word == "ordered" }
        if let first = tokens.firstIndex(where: isOption), first > 0 {
            let type = tokens[..<first].joined(separator: " ")
            switch parse(type, entityNames: entityNames) {
            case let .success(.relationship(destination, toMany, optional, _, _, _)):
                var rule: DeleteRule?, inverse: String?, ordered = false
                var index = first
                while index < tokens.count {
                    let word = tokens[index]
                    if let parsed = DeleteRule(rawValue: word) {
                        guard rule == nil else { return .failure(Failure(message: "a relationship takes one delete rule; '\(type)' names two.")) }
                        rule = parsed
                        index += 1
                    } else if word == "inverse" {
                        guard index + 1 < tokens.count else {
                            return .failure(Failure(message: "inverse needs the name of the relationship that points back, like inverse folder."))
                        }
                        guard inverse == nil else { return .failure(Failure(message: "a relationship takes one inverse; '\(type)' names two.")) }
                        let name = tokens[index + 1]
                        guard ScenarioDecoder.isPropertyName(name) else {
                            return .failure(Failure(message: "'\(name)' cannot name an inverse relationship: a property name starts with a lowercase letter."))
                        }
                        inverse = name
                        index += 2
                    } else if word == "ordered" {
                        guard toMany else {
                            return .failure(Failure(message: "only a to-many relationship can be ordered; '\(type)' is a to-one."))
                        }
                        guard !ordered else { return .failure(Failure(message: "'\(type)' says ordered twice.")) }
                        ordered = true
                        index += 1
                    } else {
                        return .failure(unknownOption(word))
                    }
                }
                return .success(.relationship(destination: destination, toMany: toMany, optional: optional,
                                              deleteRule: rule ?? .nullify, inverse: inverse, ordered: ordered))
            case .success(.attribute):
                return .failure(Failure(message: "only a relationship has a delete rule, an inverse or an order; '\(type)' is an attribute."))
            case .failure(let failure):
                return .failure(failure)
            }
        }
        // Words after a relationship's type that are neither a rule nor `inverse name`: say so, rather than
        // read the whole text as a type.
        if tokens.count >= 2, tokens[1] != "unique", case .success(.relationship) = parse(tokens[0], entityNames: entityNames) {
            return .failure(unknownOption(tokens[1]))
        }
        var typePart = text.trimmingWhitespace()
        var defaultText: String?
        // `string unique` (or `string unique = A`): a uniqueness constraint on the attribute.
        var unique = false
        let words = typePart.split(separator: " ", maxSplits: 1).map(String.init)
        if words.count == 2, words[1].trimmingWhitespace() == "unique" || words[1].trimmingWhitespace().hasPrefix("unique ")
            || words[1].trimmingWhitespace().hasPrefix("unique=") {
            unique = true
            typePart = words[0] + String(words[1].trimmingWhitespace().dropFirst("unique".count))
        }
        if let equals = typePart.firstIndex(of: "=") {
            defaultText = String(typePart[typePart.index(after: equals)...]).trimmingWhitespace()
            typePart = String(typePart[..<equals]).trimmingWhitespace()
            if defaultText?.isEmpty == true {
                return .failure(Failure(message: "the default after '=' is missing; write it like bool = false."))
            }
        }
        if typePart.hasPrefix("[") {
            guard typePart.hasSuffix("]") else {
                return .failure(Failure(message: "'\(typePart)' opens a to-many relationship but never closes it; "
                    + "write it like [Tag]."))
            }
            let destination = String(typePart.dropFirst().dropLast()).trimmingWhitespace()
            if let failure = checkDestination(destination, entityNames: entityNames) { return .failure(failure) }
            if defaultText != nil {
                return .failure(Failure(message: "a relationship cannot have a default value; remove '= ...'."))
            }
            return .success(.relationship(destination: destination, toMany: true, optional: true, deleteRule: .nullify, inverse: nil,
                                          ordered: false))
        }
        if typePart.hasSuffix("]?") {
            return .failure(Failure(message: "to-many relationships are always optional; write "
                + "\(typePart.dropLast()) without the '?'."))
        }
        let optional = typePart.hasSuffix("?")
        let base = optional ? String(typePart.dropLast()).trimmingWhitespace() : typePart
        if let type = AttributeType(rawValue: base) {
            return .success(.attribute(type, optional: optional, defaultText: defaultText, unique: unique))
        }
        if unique {
            return .failure(Failure(message: "only an attribute can be unique; '\(base)' is not an attribute type."))
        }
        if entityNames.contains(base) {
            if defaultText != nil {
                return .failure(Failure(message: "a relationship cannot have a default value; remove '= ...'."))
            }
            return .success(.relationship(destination: base, toMany: false, optional: optional, deleteRule: .nullify, inverse: nil,
                                          ordered: false))
        }
        let candidates = AttributeType.spellings + entityNames
        return .failure(Failure(message: "unknown type '\(base)'" + Suggestion.hint(
            for: base, in: candidates,
            otherwise: "use string, int, double, bool, date or uuid, an entity of the model for a to-one "
                + "relationship, or [Entity] for a to-many one.")))
    }

    /// A word after a relationship's type that is neither a delete rule nor `inverse`.
    private static func unknownOption(_ word: String) -> Failure {
        let rules = DeleteRule.allCases.map(\.rawValue)
        return Failure(message: "'\(word)' after the relationship's type is neither a delete rule (\(rules.joined(separator: ", "))), "
            + "inverse <name> nor ordered" + (Suggestion.nearest(to: word, in: rules + ["inverse", "ordered"]).map { "; did you mean '\($0)'?" } ?? "."))
    }

    private static func checkDestination(_ destination: String, entityNames: [String]) -> Failure? {
        guard !entityNames.contains(destination) else { return nil }
        return Failure(message: "unknown entity '\(destination)' in a to-many relationship"
            + Suggestion.hint(for: destination, in: entityNames))
    }
}
