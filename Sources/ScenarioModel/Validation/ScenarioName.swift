import Basics
import Foundation

/// A scenario's name: kebab-case, from `name:` or the file's name.
enum ScenarioName {
    /// `name:`, or the file's name when there is none: either must be kebab-case.
    static func decode(_ map: MappingReader, fileName baseName: String, decoder: NodeDecoder) -> String? {
        guard let node = map["name"] else {
            guard isKebabCase(baseName) else {
                decoder.error("the file name '\(baseName)' is not a kebab-case scenario name; "
                    + "add name: \(kebabCased(baseName)) or rename the file.", line: 1, column: 1)
                return nil
            }
            return baseName
        }
        guard let name = decoder.string(node, "the scenario's kebab-case name") else { return nil }
        guard isKebabCase(name) else {
            decoder.error("the scenario name '\(name)' is not kebab-case; write it like "
                + "\(kebabCased(name)) (lowercase words and digits joined by '-').", at: node)
            return nil
        }
        return name
    }

    /// Lowercase letters and digits in words joined by single hyphens: `refresh-with-infinite-staleness`.
    static func isKebabCase(_ text: String) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        return !text.isEmpty && words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
        }
    }

    /// A kebab-case spelling of `text`, for suggestions.
    static func kebabCased(_ text: String) -> String {
        let folded = Suggestion.fold(text).map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return String(folded).split(separator: "-").joined(separator: "-")
    }
}
