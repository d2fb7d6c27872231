import Basics
import Foundation

/// Scalars and flow mappings as the scenario language reads them back: plain where plain text reads as
/// the same string, double-quoted with escapes otherwise.
enum YAMLText {
    /// A key or a word (process, entity, id, attribute): plain when it is a plain identifier.
    static func word(_ text: String) -> String {
        let plain = !text.isEmpty && text.first!.isLetter
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
            && !reserved.contains(text.lowercased())
        return plain ? text : quoted(text)
    }

    /// Words YAML would read as something other than a string.
    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]

    /// Text, always double-quoted, with YAML's escapes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                // Controls and line breaks, and what a reader cannot see or a parser may drop (a byte-order
                // mark, bidirectional marks): written as escapes, which read back as the same scalar.
                if VisibleText.needsEscape(scalar) {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Whether `text`, written by `quoted`, reads back as itself: YAML readers (Yams among them) drop a
    /// byte-order mark that starts a scalar, escaped or not, so such a string cannot be kept in a file.
    static func readsBack(_ text: String) -> Bool {
        text.unicodeScalars.first != "\u{FEFF}"
    }

    /// Text for a `#` comment, kept on its one line whatever it holds (`VisibleText`): text from a store or
    /// a path can never end the comment and start a line of the file, nor drive a terminal that prints it.
    static func comment(_ text: String) -> String {
        VisibleText.escaped(text)
    }

    /// A value as the model's types read it back.
    static func value(_ value: Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(number) : quoted(String(number))
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date): quoted(Value.formatDate(date))
        case .uuid(let uuid): quoted(uuid.uuidString)
        case .null: "null"
        }
    }

    /// `{ a: 1, b: "x" }`, keys sorted.
    static func values(_ values: [String: Value]) -> String {
        flow(values.keys.sorted().map { (word($0), value(values[$0]!)) })
    }

    /// `{ key: value, ... }` in the order given.
    static func flow(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "{}" : "{ " + pairs.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }

    /// `model` as a scenario's `model:` section, each entity with the properties it declares itself (a
    /// sub-entity's inherited ones come from its parent). Defaults are left out: a skeleton inserts nothing.
    static func model(_ model: ModelDescription, indent: String) -> [String] {
        var lines = ["\(indent)model:"]
        // An inverse is written where reading the file back would not infer it.
        let stripped = model.entities.map { entity in
            var entity = entity
            for index in entity.relationships.indices { entity.relationships[index].inverse = nil }
            return entity
        }
        let inferred = Dictionary(ModelDecoder.inferringInverses(stripped).map { ($0.name, $0) }) { first, _ in first }
        for entity in model.entities {
            let header = lines.count
            lines.append("\(indent)  \(word(entity.name)):")
            defer {
                // An entity that declares nothing (a sub-entity adding no property has its parent line).
                if lines.count == header + 1 { lines[header] += " {}" }
            }
            if let parent = entity.parent { lines.append("\(indent)    parent-entity: \(word(parent))") }
            if entity.isAbstract { lines.append("\(indent)    abstract-entity: true") }
            let declared = model.declaredProperties(of: entity)
            for attribute in declared.attributes {
                lines.append("\(indent)    \(word(attribute.name)): \(attribute.type.rawValue)\(attribute.isOptional ? "?" : "")\(attribute.isUnique ? " unique" : "")")
            }
            for relationship in declared.relationships {
                var options = relationship.deleteRule == .nullify ? "" : " \(relationship.deleteRule.rawValue)"
                let wouldInfer = inferred[entity.name]?.relationships.first { $0.name == relationship.name }?.inverse
                if let inverse = relationship.inverse, inverse != wouldInfer { options += " inverse \(word(inverse))" }
                if relationship.isOrdered { options += " ordered" }
                let type = relationship.isToMany ? "\"[\(relationship.destination)]\(options)\"" : relationship.destination + (relationship.isOptional ? "?" : "") + options
                lines.append("\(indent)    \(word(relationship.name)): \(type)")
            }
            let inherited = entity.parent.flatMap(model.entity(named:))?.uniquenessConstraints ?? []
            let own = entity.uniquenessConstraints.filter { !inherited.contains($0) }
            if !own.isEmpty {
                lines.append("\(indent)    uniqueness-constraints: [\(own.map { "[\($0.map(word).joined(separator: ", "))]" }.joined(separator: ", "))]")
            }
        }
        return lines
    }
}
