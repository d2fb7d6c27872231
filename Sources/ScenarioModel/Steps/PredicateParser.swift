import Foundation

/// Parses a `where:` string into a ``FetchPredicate``, checking attribute names and literal types
/// against the entity.
///
/// ```
/// or      := and (("OR" | "||") and)*
/// and     := unary (("AND" | "&&") unary)*
/// unary   := ("NOT" | "!") unary | "(" or ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | attribute op literal
/// op      := == = != <> < <= > >= CONTAINS BEGINSWITH ENDSWITH
/// literal := 12 | -2.5 | 'text' | "text" | true | false | YES | NO | nil | null
/// ```
struct PredicateParser {
    /// Why the text did not parse: a sentence, and the offset (in Unicode scalars) it is about.
    struct Failure: Error {
        var message: String
        var offset: Int
    }

    private enum Token: Equatable {
        case word(String)
        case number(String)
        case text(String)
        case symbol(String)
        case open, close, end
    }

    private let tokens: [(token: Token, offset: Int)]
    private let entity: EntityModel?
    private var index = 0

    /// Tokenizes `text`; attribute checks are skipped when `entity` is nil (an unknown entity, already
    /// reported).
    init(_ text: String, entity: EntityModel?) throws(Failure) {
        self.tokens = try PredicateParser.tokenize(text)
        self.entity = entity
    }

    /// Parses the whole text.
    mutating func parse() throws(Failure) -> FetchPredicate {
        let predicate = try parseOr()
        guard case .end = current.token else {
            throw Failure(message: "unexpected \(describe(current.token)) in the predicate; "
                + "join conditions with AND or OR.", offset: current.offset)
        }
        return predicate
    }

    private var current: (token: Token, offset: Int) { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isKeyword(_ names: String...) -> Bool {
        switch current.token {
        case let .word(word): names.contains(word.uppercased())
        case let .symbol(symbol): names.contains(symbol)
        default: false
        }
    }

    private mutating func parseOr() throws(Failure) -> FetchPredicate {
        var operands = [try parseAnd()]
        while isKeyword("OR", "||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(Failure) -> FetchPredicate {
        var operands = [try parseUnary()]
        while isKeyword("AND", "&&") {
            advance()
            operands.append(try parseUnary())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseUnary() throws(Failure) -> FetchPredicate {
        if isKeyword("NOT", "!") {
            advance()
            return .not(try parseUnary())
        }
        if isKeyword("TRUEPREDICATE") || isKeyword("FALSEPREDICATE") {
            defer { advance() }
            return .constant(isKeyword("TRUEPREDICATE"))
        }
        if current.token == .open {
            let open = current.offset
            advance()
            let inner = try parseOr()
            guard current.token == .close else {
                throw Failure(message: "the parenthesis opened here is never closed; add ')'.", offset: open)
            }
            advance()
            return inner
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(Failure) -> FetchPredicate {
        let (token, offset) = current
        guard case let .word(name) = token else {
            throw Failure(message: "expected an attribute name but found \(describe(token)); "
                + "write a condition like rank > 2.", offset: offset)
        }
        let attribute = try lookUp(name, at: offset)
        advance()
        let op = try parseOperator()
        let (literal, literalOffset) = current
        advance()
        let value = try PredicateParser.value(of: literal, for: attribute, op: op, at: literalOffset)
        return .comparison(attribute: name, op: op, value: value)
    }

    private func lookUp(_ name: String, at offset: Int) throws(Failure) -> AttributeModel? {
        guard let entity else { return nil }
        if let attribute = entity.attribute(named: name) { return attribute }
        if entity.relationship(named: name) != nil {
            throw Failure(message: "'\(name)' is a relationship of \(entity.name); a predicate compares "
                + "attributes only.", offset: offset)
        }
        throw Failure(message: "\(entity.name) has no attribute '\(name)'"
            + Suggestion.hint(for: name, in: entity.attributes.map(\.name)), offset: offset)
    }

    private mutating func parseOperator() throws(Failure) -> ComparisonOperator {
        let (token, offset) = current
        let spelling: String
        switch token {
        case let .symbol(symbol): spelling = symbol
        case let .word(word): spelling = word.uppercased()
        default: spelling = ""
        }
        let aliases: [String: ComparisonOperator] = ["=": .equal, "<>": .notEqual, "=<": .lessOrEqual, "=>": .greaterOrEqual]
        guard let op = ComparisonOperator(rawValue: spelling) ?? aliases[spelling] else {
            throw Failure(message: "expected a comparison (==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH or ENDSWITH) "
                + "but found \(describe(token)).", offset: offset)
        }
        advance()
        return op
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case let .word(word): "'\(word)'"
        case let .number(number): "'\(number)'"
        case let .text(text): "'\(text)'"
        case let .symbol(symbol): "'\(symbol)'"
        case .open: "'('"
        case .close: "')'"
        case .end: "the end"
        }
    }
}

extension PredicateParser {
    /// The literal as a value of the attribute's type (or as written, when the attribute is unknown).
    private static func value(of literal: Token, for attribute: AttributeModel?, op: ComparisonOperator,
                              at offset: Int) throws(Failure) -> AttributeValue {
        let raw: AttributeValue
        switch literal {
        case let .number(text):
            if let int = Int64(text) { raw = .int(int) } else if let double = Double(text), double.isFinite { raw = .double(double) } else {
                throw Failure(message: "'\(text)' is not a number a 64-bit integer or double can hold.", offset: offset)
            }
        case let .text(text): raw = .string(text)
        case let .word(word):
            switch word.lowercased() {
            case "true", "yes": raw = .bool(true)
            case "false", "no": raw = .bool(false)
            case "nil", "null": raw = .null
            default:
                throw Failure(message: "'\(word)' is not a value; put text in quotes, like '\(word)'.", offset: offset)
            }
        default:
            throw Failure(message: "expected a value after '\(op.rawValue)', like 2 or 'text'.", offset: offset)
        }
        guard let attribute else { return raw }
        return try coerce(raw, to: attribute, op: op, at: offset)
    }

    private static func coerce(_ value: AttributeValue, to attribute: AttributeModel, op: ComparisonOperator,
                               at offset: Int) throws(Failure) -> AttributeValue {
        let name = attribute.name, type = attribute.type
        if value == .null {
            guard op == .equal || op == .notEqual else {
                throw Failure(message: "nil can only be compared with == or !=.", offset: offset)
            }
            return .null
        }
        if op.isTextual, type != .string {
            throw Failure(message: "\(op.rawValue) works on string attributes, and '\(name)' is \(type.rawValue).",
                          offset: offset)
        }
        if op.isOrdering, type == .bool || type == .uuid {
            throw Failure(message: "'\(name)' is \(type.rawValue), which has no order; compare it with == or !=.",
                          offset: offset)
        }
        switch (type, value) {
        case (.string, .string), (.int, .int), (.int, .double), (.double, .double), (.bool, .bool):
            return value
        case let (.double, .int(int)):
            return .double(Double(int))
        case let (.date, .string(text)):
            if let date = AttributeValue.parseDate(text) { return .date(date) }
        case let (.uuid, .string(text)):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        default:
            break
        }
        let example = ["string": "'text'", "int": "3", "double": "2.5", "bool": "true",
                       "date": "'2024-05-01T12:00:00Z'", "uuid": "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"]
        throw Failure(message: "'\(name)' is \(type.rawValue), so compare it with a value like "
            + "\(example[type.rawValue] ?? "3"), not \(value.description).", offset: offset)
    }

    /// Splits the text into tokens with their offsets in Unicode scalars.
    private static func tokenize(_ text: String) throws(Failure) -> [(token: Token, offset: Int)] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [(token: Token, offset: Int)] = []
        var i = 0
        func isWordScalar(_ s: Unicode.Scalar) -> Bool {
            s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_"
        }
        while i < scalars.count {
            let s = scalars[i], start = i
            if s == " " || s == "\t" || s == "\n" {
                i += 1
            } else if s == "(" || s == ")" {
                tokens.append((s == "(" ? .open : .close, start))
                i += 1
            } else if s == "'" || s == "\"" {
                i += 1
                var value = ""
                while i < scalars.count, scalars[i] != s {
                    value.unicodeScalars.append(scalars[i])
                    i += 1
                }
                guard i < scalars.count else {
                    throw Failure(message: "the quoted text starting here is never closed; add \(s).", offset: start)
                }
                i += 1
                tokens.append((.text(value), start))
            } else if ("0"..."9").contains(s) || (s == "-" && i + 1 < scalars.count && ("0"..."9").contains(scalars[i + 1])) {
                i += 1
                while i < scalars.count, ("0"..."9").contains(scalars[i]) || scalars[i] == "." || scalars[i] == "e"
                    || scalars[i] == "E" { i += 1 }
                tokens.append((.number(String(String.UnicodeScalarView(scalars[start..<i]))), start))
            } else if s.properties.isAlphabetic || s == "_" {
                while i < scalars.count, isWordScalar(scalars[i]) { i += 1 }
                tokens.append((.word(String(String.UnicodeScalarView(scalars[start..<i]))), start))
            } else if "=!<>&|".unicodeScalars.contains(s) {
                while i < scalars.count, "=!<>&|".unicodeScalars.contains(scalars[i]), i - start < 2 { i += 1 }
                tokens.append((.symbol(String(String.UnicodeScalarView(scalars[start..<i]))), start))
            } else {
                throw Failure(message: "unexpected '\(s)' in the predicate.", offset: start)
            }
        }
        tokens.append((.end, scalars.count))
        return tokens
    }
}
