import Basics

/// Collects the errors of one file while its nodes are decoded, and reads typed scalars from nodes.
///
/// Every read that fails records an error at the node and returns nil, so decoding goes on and one
/// pass finds every problem in the file.
final class NodeDecoder {
    /// The file named in every error.
    let file: String
    /// The errors found so far, in the order they were found.
    private(set) var errors: [ScenarioError] = []
    /// libyaml's positions to the editor's (see `LineMap`); set once the text is known.
    var lines = LineMap("")

    init(file: String) {
        self.file = file
    }

    /// The location of a node in this file, as an editor shows it.
    func location(of node: YAMLNode) -> SourceLocation {
        let position = lines.position(line: node.line, column: node.column)
        return SourceLocation(file: file, line: position.line, column: position.column)
    }

    /// Records an error at a node.
    func error(_ message: String, at node: YAMLNode) {
        let position = lines.position(line: node.line, column: node.column)
        error(message, line: position.line, column: position.column)
    }

    /// Records an error at libyaml's position (a syntax error's mark).
    func error(_ message: String, yamlLine line: Int, column: Int) {
        let position = lines.position(line: line, column: column)
        error(message, line: position.line, column: position.column)
    }

    /// Records an error at an editor's position. Control characters a message echoes from the file are
    /// written as escapes, so every error stays on one `file:line:column:` line.
    func error(_ message: String, line: Int, column: Int) {
        errors.append(ScenarioError(file: file, line: line, column: column, message: Self.printable(message, limit: .max)))
    }

    // MARK: Typed reads

    /// A non-null scalar's text.
    func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = node.scalar, !node.isNull else {
            error("expected \(what), but found \(node.shortDescription).", at: node)
            return nil
        }
        return text
    }

    /// A name: a non-empty scalar of letters, digits, `-`, `_` and `.`, not starting with `.`, at most 100
    /// bytes. Names become file and directory names (app groups, stores, copies), so none may be `.`,
    /// `..` or hidden, and none holds a separator or a control character.
    func name(_ node: YAMLNode, _ what: String) -> String? {
        guard let text = string(node, what) else { return nil }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            error("expected \(what), but found '\(Self.printable(text))'; use only letters, digits, '-', '_' and '.'.", at: node)
            return nil
        }
        guard !text.hasPrefix("."), text.utf8.count <= 100 else {
            error("expected \(what), but found '\(Self.printable(text))'; a name may not start with '.' or be longer than 100 bytes.", at: node)
            return nil
        }
        return text
    }

    /// `text` as an error message may echo it: control characters (newlines, U+0085, escapes) written as
    /// `\u{..}`, so the message stays on its line, and at most 80 characters.
    static func printable(_ text: String, limit: Int = 80) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar == "\u{2028}" || scalar == "\u{2029}" {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > limit ? result + "..." : result
    }

    /// `true` or `false`.
    func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        if !node.isQuoted, let text = node.scalar {
            switch text {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        error("expected true or false for \(what), but found \(node.shortDescription).", at: node)
        return nil
    }

    /// A whole number within `range`.
    func int(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int> = Int.min...Int.max) -> Int? {
        let bounds = range.upperBound == Int.max ? "at least \(range.lowerBound)"
            : "between \(range.lowerBound) and \(range.upperBound)"
        guard !node.isQuoted, let text = node.scalar, let value = Int(text.replacingUnderscores()) else {
            // A whole number too long for 64 bits is out of range, not something else.
            let digits = node.scalar.map { $0.replacingUnderscores().drop { $0 == "-" || $0 == "+" } } ?? ""
            if !node.isQuoted, !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                error("\(what) must be \(bounds), but \(node.shortDescription) is far out of that range.", at: node)
            } else {
                error("expected a whole number for \(what), but found \(node.shortDescription).", at: node)
            }
            return nil
        }
        guard range.contains(value) else {
            error("\(what) must be \(bounds), but is \(value).", at: node)
            return nil
        }
        return value
    }

    /// A non-negative whole number that fits 64 bits (seeds).
    func uint64(_ node: YAMLNode, _ what: String) -> UInt64? {
        guard !node.isQuoted, let text = node.scalar, let value = UInt64(text.replacingUnderscores()) else {
            error("expected a non-negative whole number for \(what), but found \(node.shortDescription).", at: node)
            return nil
        }
        return value
    }

    /// A duration like `200ms`, at most `limit` (`Limits.realTime` unless the clock is simulated).
    func duration(_ node: YAMLNode, _ what: String, limit: Duration = Limits.realTime) -> Duration? {
        guard let text = node.scalar, !node.isNull else {
            error("expected a duration like 200ms for \(what), but found \(node.shortDescription).", at: node)
            return nil
        }
        do {
            let duration = try Duration(parsing: text)
            guard duration <= limit else {
                let clock = limit == Limits.realTime ? "the longest a run waits on the real clock" : "the longest the simulated clock moves at once"
                error("the duration '\(text)' for \(what) is longer than \(limit), \(clock); use a shorter one.", at: node)
                return nil
            }
            return duration
        } catch {
            switch error {
            case .missingUnit:
                // On the simulated clock (reload policies, purge ages) minutes and days are the usual units.
                let units = limit == Limits.realTime ? "\(text)s or \(text)ms" : "\(text)m, \(text)s or \(text)d"
                self.error("the duration '\(text)' for \(what) has no unit; write it like \(units).", at: node)
            case .outOfRange:
                self.error("the duration '\(text)' for \(what) is finer than a microsecond; "
                    + "round it to whole microseconds.", at: node)
            case .tooLong:
                let clock = limit == Limits.realTime ? "the longest a run waits on the real clock" : "the longest the simulated clock moves at once"
                self.error("the duration '\(text)' for \(what) is longer than \(limit), \(clock); use a shorter one.", at: node)
            case .malformed:
                self.error("expected a duration like 200ms for \(what), but found '\(text)'; "
                    + "write a number followed by us, ms, s, m, h or d.", at: node)
            }
        }
        return nil
    }

    /// One of a keyword enum's values, suggesting the nearest on a misspelling.
    func keyword<Value: ScenarioKeyword>(_ node: YAMLNode, _ type: Value.Type, _ what: String) -> Value? {
        guard let text = node.scalar, !node.isNull else {
            error("expected \(what) (\(Suggestion.list(Value.spellings))), but found \(node.shortDescription).",
                  at: node)
            return nil
        }
        if let value = Value(keyword: text) { return value }
        error("unknown \(what) '\(text)'" + Suggestion.hint(for: text, in: Value.spellings), at: node)
        return nil
    }

    /// A list of scalars; a single scalar is accepted as a list of one when `allowingSingle` is set.
    func scalarList(_ node: YAMLNode, _ what: String, allowingSingle: Bool = false) -> [(String, YAMLNode)]? {
        if allowingSingle, node.scalar != nil, !node.isNull {
            return [(node.scalar!, node)]
        }
        guard let items = node.items else {
            error("expected \(what) as a list like [a, b], but found \(node.shortDescription).", at: node)
            return nil
        }
        var result: [(String, YAMLNode)] = []
        for item in items {
            if let text = string(item, "a name in \(what)") { result.append((text, item)) }
        }
        return result
    }
}

/// A closed vocabulary written in scenario files: kebab-case raw values, plus optional aliases.
protocol ScenarioKeyword: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// Other accepted spellings.
    static var aliases: [String: Self] { get }
    /// The values a file may write, in declaration order (all of them, unless the type says).
    static var accepted: [Self] { get }
}

extension ScenarioKeyword {
    static var aliases: [String: Self] { [:] }
    static var accepted: [Self] { Array(allCases) }

    /// The canonical spellings, in declaration order.
    static var spellings: [String] { accepted.map(\.rawValue) }

    /// The value for a spelling or an alias.
    init?(keyword: String) {
        if let value = Self(rawValue: keyword) ?? Self.aliases[keyword], Self.accepted.contains(where: { $0.rawValue == value.rawValue }) {
            self = value
        } else {
            return nil
        }
    }
}

extension String {
    /// The text without `_` digit separators (`1_000` is a number in YAML 1.1).
    func replacingUnderscores() -> String { filter { $0 != "_" } }
}
