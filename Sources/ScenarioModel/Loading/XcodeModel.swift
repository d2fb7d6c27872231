import Basics
import Foundation

/// An Xcode data model (`.xcdatamodeld`, one `.xcdatamodel` version, or its `contents` file) read as a
/// scenario's model: what `groupsim import --model` and `inspect --model` take from an app's project.
///
/// Entities keep their names, parent entity and abstractness; attributes their name, optionality and type
/// (`Integer 16/32/64` are `int`; `Double`, `Float` and `Decimal` are `double`; `String`, `Boolean`,
/// `Date` and `UUID` are `string`, `bool`, `date` and `uuid`); relationships their destination, to-many,
/// optionality, delete rule, inverse and order; uniqueness constraints become `unique` attributes or
/// `uniqueness-constraints`. What the scenario language cannot hold is left out and said in a note:
/// attributes of other types (`Binary`, `Transformable`, `URI`, `Composite`...) and transient properties
/// (no column holds them). Default values, fetched
/// properties, fetch requests and configurations are not read.
struct XcodeModel {
    let file: String
    private(set) var notes: [String] = []
    /// Where each entity and each of its properties is declared, for errors found once the model is built.
    private var positions: [String: (entity: ParsedXMLElement, properties: [String: ParsedXMLElement])] = [:]

    init(file: String) { self.file = file }

    /// The file an Xcode model keeps its version in, for a path to a `.xcdatamodeld` (its current version,
    /// as its `.xccurrentversion` names it, else the highest numbered) or to one `.xcdatamodel`; nil for a file.
    static func contentsFile(of url: URL) throws(ScenarioErrors) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        if url.pathExtension == "xcdatamodeld" {
            // Xcode names versions "App", "App 2", "App 3"...: ordered by that number, not as text.
            func order(_ name: String) -> (String, Int) {
                let base = String(name.dropLast(".xcdatamodel".count))
                guard let space = base.lastIndex(of: " "), let number = Int(base[base.index(after: space)...]) else { return (base, 1) }
                return (String(base[..<space]), number)
            }
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
                .filter { $0.hasSuffix(".xcdatamodel") }.sorted { order($0) < order($1) }
            var chosen = versions.last
            if let plist = try? UntrustedFile.data(url.appendingPathComponent(".xccurrentversion"), limit: 64 << 10),
               let values = try? PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any],
               let current = values["_XCCurrentVersionName"] as? String, versions.contains(current)
            {
                chosen = current
            }
            guard let chosen else {
                throw ScenarioErrors([ScenarioError(file: ScenarioLoader.displayPath(of: url), line: 1, column: 1,
                    message: "the model package holds no .xcdatamodel version; give a version's folder or its contents file.")])
            }
            return url.appendingPathComponent(chosen).appendingPathComponent("contents")
        }
        return url.appendingPathComponent("contents")
    }

    /// Whether `text` is XML rather than YAML (its first character, after spaces, is `<`).
    static func looksLikeXML(_ text: String) -> Bool {
        text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first == "<"
    }

    /// The model the XML gives, checked as the scenario language checks a model.
    mutating func decode(_ text: String) throws(ScenarioErrors) -> ModelDescription {
        let root: ParsedXMLElement
        do {
            root = try XMLElements.parse(text)
        } catch {
            throw ScenarioErrors([ScenarioError(file: file, line: error.line, column: error.column, message: error.message + ".")])
        }
        guard root.name == "model" else {
            throw ScenarioErrors([ScenarioError(file: file, line: root.line, column: root.column,
                message: "the root element is <\(VisibleText.escaped(root.name))>; an Xcode model's contents file has <model>.")])
        }
        let elements = root.children(named: "entity")
        guard elements.count <= Limits.entities else {
            throw ScenarioErrors([ScenarioError(file: file, line: elements[Limits.entities].line, column: elements[Limits.entities].column,
                message: "the model has \(elements.count) entities, and a scenario's model may have at most \(Limits.entities).")])
        }
        var entities: [EntityDescription] = []
        var errors: [ScenarioError] = []
        for element in elements {
            guard let name = element.attributes["name"] else {
                errors.append(ScenarioError(file: file, line: element.line, column: element.column, message: "an <entity> without a name."))
                continue
            }
            entities.append(entity(name, element))
        }
        // A destination is written into the model's YAML form as it is: it must name an entity, in letters,
        // digits and underscores (someone else's file could otherwise write YAML of its own there).
        let names = Set(entities.map(\.name))
        for entity in entities {
            for relationship in entity.relationships {
                let destination = relationship.destination
                guard !destination.isEmpty, destination.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
                      names.contains(destination) else {
                    let element = positions[entity.name]?.properties[relationship.name] ?? positions[entity.name]?.entity
                    errors.append(ScenarioError(file: file, line: element?.line ?? 1, column: element?.column ?? 1,
                        message: "\(VisibleText.escaped(entity.name)).\(VisibleText.escaped(relationship.name)) points at "
                            + "'\(VisibleText.escaped(destination))' (destinationEntity), which is no entity of the model."))
                    continue
                }
            }
        }
        if !errors.isEmpty { throw ScenarioErrors(errors) }
        let model = ModelDescription(entities: entities).inheriting()
        return try checked(model)
    }

    private mutating func entity(_ name: String, _ element: ParsedXMLElement) -> EntityDescription {
        var entity = EntityDescription(name: name, parent: element.attributes["parentEntity"], isAbstract: element.attributes["isAbstract"] == "YES")
        var properties: [String: ParsedXMLElement] = [:]
        let shown = VisibleText.escaped(name)
        for attribute in element.children(named: "attribute") {
            guard let property = attribute.attributes["name"] else { continue }
            properties[property] = attribute
            let label = "\(shown).\(VisibleText.escaped(property))"
            if attribute.attributes["transient"] == "YES" {
                notes.append("\(label) is transient (no column holds it): left out")
                continue
            }
            let given = attribute.attributes["attributeType"] ?? "Undefined"
            guard let type = Self.attributeTypes[given] else {
                notes.append("\(label) is \(VisibleText.escaped(given)), a type the scenario language does not have: left out")
                continue
            }
            entity.attributes.append(AttributeDescription(name: property, type: type, isOptional: attribute.attributes["optional"] == "YES"))
        }
        for relationship in element.children(named: "relationship") {
            guard let property = relationship.attributes["name"] else { continue }
            properties[property] = relationship
            let label = "\(shown).\(VisibleText.escaped(property))"
            if relationship.attributes["transient"] == "YES" {
                notes.append("\(label) is transient (no column holds it): left out")
                continue
            }
            let toMany = relationship.attributes["toMany"] == "YES"
            entity.relationships.append(RelationshipDescription(
                name: property, destination: relationship.attributes["destinationEntity"] ?? "", isToMany: toMany,
                isOptional: relationship.attributes["optional"] == "YES", inverse: relationship.attributes["inverseName"],
                deleteRule: Self.deleteRules[relationship.attributes["deletionRule"] ?? "Nullify"] ?? .nullify,
                isOrdered: toMany && relationship.attributes["ordered"] == "YES"))
        }
        let stored = Set(entity.attributes.map(\.name))
        for group in element.children(named: "uniquenessConstraints") {
            for constraint in group.children(named: "uniquenessConstraint") {
                let names = constraint.children(named: "constraint").compactMap { $0.attributes["value"] }
                guard !names.isEmpty else { continue }
                if let missing = names.first(where: { !stored.contains($0) }), properties[missing] != nil {
                    notes.append("the uniqueness constraint [\(names.map(VisibleText.escaped).joined(separator: ", "))] of \(shown) "
                        + "names \(VisibleText.escaped(missing)), which is left out: the constraint is too")
                    continue
                }
                if names.count == 1, let index = entity.attributes.firstIndex(where: { $0.name == names[0] }) {
                    entity.attributes[index].isUnique = true
                } else if !entity.uniquenessConstraints.contains(names) {
                    entity.uniquenessConstraints.append(names)
                }
            }
        }
        positions[name] = (element, properties)
        return entity
    }

    /// The model read back through the scenario language, so every check a `model:` gets applies; an
    /// error is placed at the XML element that declared what it is about.
    private func checked(_ model: ModelDescription) throws(ScenarioErrors) -> ModelDescription {
        let lines = YAMLText.model(model, indent: "")
        // What each line of that YAML says, in the order `YAMLText.model` writes it: `model:`, then per
        // entity its name, parent, abstractness, declared attributes and relationships, constraints.
        var owners: [ParsedXMLElement?] = [nil]
        for entity in model.entities {
            let place = positions[entity.name]
            owners.append(place?.entity)
            if entity.parent != nil { owners.append(place?.entity) }
            if entity.isAbstract { owners.append(place?.entity) }
            let declared = model.declaredProperties(of: entity)
            for name in declared.attributes.map(\.name) + declared.relationships.map(\.name) {
                owners.append(place?.properties[name] ?? place?.entity)
            }
            let inherited = entity.parent.flatMap(model.entity(named:))?.uniquenessConstraints ?? []
            if entity.uniquenessConstraints.contains(where: { !inherited.contains($0) }) { owners.append(place?.entity) }
        }
        switch ModelDecoder(decoder: NodeDecoder(file: file)).decodeFile(yaml: lines.joined(separator: "\n") + "\n") {
        case .success(let decoded):
            return decoded
        case .failure(let failure):
            throw ScenarioErrors(failure.errors.map { error in
                let element = owners.count == lines.count && owners.indices.contains(error.line - 1) ? owners[error.line - 1] : nil
                return ScenarioError(file: file, line: element?.line ?? 1, column: element?.column ?? 1, message: error.message)
            })
        }
    }

    private static let attributeTypes: [String: AttributeType] = [
        "Integer 16": .int, "Integer 32": .int, "Integer 64": .int, "Double": .double, "Float": .double, "Decimal": .double,
        "String": .string, "Boolean": .bool, "Date": .date, "UUID": .uuid,
    ]

    private static let deleteRules: [String: DeleteRule] = [
        "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction,
    ]
}
