import Basics
import Foundation
import SharedStore

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
                        guard ModelDecoder.isPropertyName(name) else {
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
