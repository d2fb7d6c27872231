import Basics
import Foundation

/// Decoding attribute values (`set:`, a read's `expect:`, defaults) against the model's types.
extension NodeDecoder {
    /// Decodes `{ attribute: value }` for an entity. With `entity` nil (unknown, already reported) the
    /// values are kept as text without checks.
    func attributeValues(_ node: YAMLNode, entity: EntityDescription?, _ what: String) -> [String: Value] {
        guard let map = MappingReader(node, what, self) else { return [:] }
        var values: [String: Value] = [:]
        for pair in map.pairs {
            guard let name = pair.key.scalar else { continue }
            guard let entity else {
                values[name] = pair.value.scalar.map(Value.string) ?? .null
                continue
            }
            guard let attribute = entity.attribute(named: name) else {
                if entity.relationship(named: name) != nil {
                    error("'\(name)' is a relationship of \(entity.name), not an attribute; change it with a "
                        + "step like { relate: x, to: y, via: \(name) }.", at: pair.key)
                } else {
                    error("\(entity.name) has no attribute '\(name)'"
                        + Suggestion.hint(for: name, in: entity.attributes.map(\.name)), at: pair.key)
                }
                continue
            }
            if let value = attributeValue(pair.value, for: attribute, entity: entity) {
                values[name] = value
            }
        }
        return values
    }

    /// One value checked against an attribute's type.
    func attributeValue(_ node: YAMLNode, for attribute: AttributeDescription, entity: EntityDescription?) -> Value? {
        let owner = entity.map { "\($0.name)." } ?? ""
        let described = "'\(owner)\(attribute.name)' is \(attribute.isOptional ? "an optional " : "")\(attribute.type.rawValue)"
        if node.isNull {
            if attribute.isOptional { return .null }
            error("\(described), so it cannot be null; give it a value, or declare it "
                + "\(attribute.type.rawValue)? in the model.", at: node)
            return nil
        }
        guard let text = node.scalar else {
            error("\(described), so it takes a single value, not \(node.shortDescription).", at: node)
            return nil
        }
        let quoted = node.isQuoted
        // A quoted scalar is a string in YAML: say so when the quotes are all that is wrong.
        let found = quoted ? "the quoted string \"\(text)\" (YAML reads quotes as text; write it without them)" : "'\(text)'"
        switch attribute.type {
        case .string:
            return .string(text)
        case .int:
            if !quoted, let value = Int64(text.replacingUnderscores()) { return .int(value) }
            error("\(described), so expected a whole number like 3, but found \(found).", at: node)
        case .double:
            if !quoted, let value = Double(text.replacingUnderscores()), value.isFinite { return .double(value) }
            error("\(described), so expected a number like 2.5, but found \(found).", at: node)
        case .bool:
            if !quoted, ["true", "True", "TRUE"].contains(text) { return .bool(true) }
            if !quoted, ["false", "False", "FALSE"].contains(text) { return .bool(false) }
            error("\(described), so expected true or false, but found \(found).", at: node)
        case .date:
            if let date = Value.parseDate(text) { return .date(date) }
            error("\(described), so expected an ISO 8601 date like 2024-05-01T12:00:00Z or 2024-05-01, "
                + "but found '\(text)'.", at: node)
        case .uuid:
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
            error("\(described), so expected a UUID like E621E1F8-C36C-495A-93FC-0C247A3E6E5F, "
                + "but found '\(text)'.", at: node)
        }
        return nil
    }
}
