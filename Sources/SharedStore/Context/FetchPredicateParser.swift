/// A recursive-descent parser for `FetchPredicate`.
struct FetchPredicateParser {
    enum Token: Equatable {
        case word(String), string(String), number(String), symbol(String), end
    }

    let text: String
    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0

    init(text: String) { self.text = text }

    mutating func parse() throws(FetchPredicateError) -> FetchPredicate.Node {
        tokens = try tokenize()
        let node = try parseOr()
        guard case .end = current else { throw error("unexpected \(describe(current))") }
        return node
    }

    private var current: Token { tokens[position].token }
    private var column: Int { tokens[position].column }

    private func error(_ message: String, at column: Int? = nil) -> FetchPredicateError {
        FetchPredicateError(text: text, column: column ?? self.column, message: message)
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let w): "`\(w)`"
        case .string(let s): "string '\(s)'"
        case .number(let n): "number \(n)"
        case .symbol(let s): "`\(s)`"
        case .end: "end of predicate"
        }
    }

    /// Words that cannot name an attribute or stand for a string.
    static let reserved: Set<String> = ["and", "or", "not", "in", "contains", "beginswith", "endswith",
                                        "truepredicate", "falsepredicate"]

    private func isKeyword(_ word: String) -> Bool {
        if case .word(let w) = current, w.lowercased() == word { return true }
        return false
    }

    private mutating func parseOr() throws(FetchPredicateError) -> FetchPredicate.Node {
        var node = try parseAnd()
        while isKeyword("or") || current == .symbol("||") {
            position += 1
            node = .or(node, try parseAnd())
        }
        return node
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> FetchPredicate.Node {
        var node = try parseUnary()
        while isKeyword("and") || current == .symbol("&&") {
            position += 1
            node = .and(node, try parseUnary())
        }
        return node
    }

    private mutating func parseUnary() throws(FetchPredicateError) -> FetchPredicate.Node {
        if isKeyword("not") || current == .symbol("!") {
            position += 1
            return .not(try parseUnary())
        }
        if current == .symbol("(") {
            position += 1
            let node = try parseOr()
            guard current == .symbol(")") else { throw error("expected `)`, found \(describe(current))") }
            position += 1
            return node
        }
        if isKeyword("truepredicate") || isKeyword("falsepredicate") {
            defer { position += 1 }
            return .constant(isKeyword("truepredicate"))
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(FetchPredicateError) -> FetchPredicate.Node {
        guard case .word(let key) = current, !Self.reserved.contains(key.lowercased()) else {
            throw error("expected an attribute name, found \(describe(current))")
        }
        let keyColumn = column
        position += 1
        if isKeyword("in") {
            position += 1
            guard current == .symbol("[") else { throw error("expected `[` after `in`, found \(describe(current))") }
            position += 1
            var values: [Value] = []
            if current != .symbol("]") {
                values.append(try parseLiteral())
                while current == .symbol(",") {
                    position += 1
                    values.append(try parseLiteral())
                }
            }
            guard current == .symbol("]") else { throw error("expected `,` or `]`, found \(describe(current))") }
            position += 1
            return .inList(key: key, keyColumn: keyColumn, values: values)
        }
        for op in [FetchPredicate.Operator.contains, .beginsWith, .endsWith] where isKeyword(op.rawValue.lowercased()) {
            position += 1
            let literalColumn = column
            let literal = try parseLiteral()
            guard case .string = literal else {
                throw error("\(op.rawValue) needs a string, found `\(literal)`", at: literalColumn)
            }
            return .comparison(key: key, keyColumn: keyColumn, op: op, value: literal)
        }
        guard case .symbol(let symbol) = current else {
            throw error("expected a comparison (== != < <= > >= CONTAINS BEGINSWITH ENDSWITH) or `in` after `\(key)`, found \(describe(current))")
        }
        let op: FetchPredicate.Operator
        switch symbol {
        case "==", "=": op = .equal
        case "!=", "<>": op = .notEqual
        case "<": op = .less
        case "<=": op = .lessOrEqual
        case ">": op = .greater
        case ">=": op = .greaterOrEqual
        default: throw error("expected a comparison (== != < <= > >=) or `in` after `\(key)`, found \(describe(current))")
        }
        position += 1
        return .comparison(key: key, keyColumn: keyColumn, op: op, value: try parseLiteral())
    }

    private mutating func parseLiteral() throws(FetchPredicateError) -> Value {
        defer { position += 1 }
        switch current {
        case .string(let s): return .string(s)
        case .number(let n):
            if let i = Int64(n) { return .int(i) }
            if let d = Double(n) { return .double(d) }
            throw error("invalid number \(n)")
        case .word(let w):
            switch w.lowercased() {
            case "true", "yes": return .bool(true)
            case "false", "no": return .bool(false)
            case "nil", "null": return .null
            case let word where Self.reserved.contains(word): throw error("expected a value, found `\(w)`")
            default: return .string(w)
            }
        default:
            throw error("expected a value, found \(describe(current))")
        }
    }

    private func tokenize() throws(FetchPredicateError) -> [(token: Token, column: Int)] {
        var result: [(token: Token, column: Int)] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            let col = i + 1
            if c.isWhitespace { i += 1; continue }
            if c == "'" || c == "\"" {
                var j = i + 1
                var s = ""
                while j < chars.count && chars[j] != c {
                    if chars[j] == "\\" && j + 1 < chars.count { j += 1 }
                    s.append(chars[j])
                    j += 1
                }
                guard j < chars.count else {
                    throw FetchPredicateError(text: text, column: col, message: "unterminated string")
                }
                result.append((.string(s), col))
                i = j + 1
            } else if c.isNumber || ((c == "-" || c == "+") && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i + 1
                while j < chars.count && (chars[j].isNumber || chars[j] == "." || chars[j] == "e" || chars[j] == "E") { j += 1 }
                result.append((.number(String(chars[i..<j])), col))
                i = j
            } else if c.isLetter || c == "_" {
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == ".") { j += 1 }
                result.append((.word(String(chars[i..<j])), col))
                i = j
            } else {
                let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
                if ["==", "!=", "<=", ">=", "<>", "&&", "||"].contains(two) {
                    result.append((.symbol(two), col))
                    i += 2
                } else if "=<>!()[],".contains(c) {
                    result.append((.symbol(String(c)), col))
                    i += 1
                } else {
                    throw FetchPredicateError(text: text, column: col, message: "unexpected character `\(c)`")
                }
            }
        }
        result.append((.end, chars.count + 1))
        return result
    }
}
