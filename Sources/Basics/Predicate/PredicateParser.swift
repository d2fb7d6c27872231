import Foundation

extension FetchPredicate {
    /// How deep NOT, parentheses and the relationships of key paths may nest together in a parsed predicate.
    public static let maxDepth = 64

    /// Parses `text`; with `entity`, checks every attribute and converts every literal to its type
    /// (an int literal for a double attribute, quoted text for a date or a UUID).
    ///
    /// - Throws: `FetchPredicateError` with a sentence that says how to fix it and the offset it is about.
    public init(parsing text: String, entity: (any PredicateSchema)? = nil) throws(FetchPredicateError) {
        var parser = PredicateParser(tokens: try PredicateTokenizer.tokenize(text), entity: entity)
        self = try parser.parse()
        let terms = termCount
        guard terms <= Self.maxTerms else {
            throw FetchPredicateError(message: "the predicate has \(terms) comparisons, more than the \(Self.maxTerms) SQLite can evaluate in one "
                + "expression; split the condition.", offset: 0)
        }
        guard sqlDepth <= Self.maxSQLDepth else {
            throw FetchPredicateError(message: "the predicate nests too deep for SQLite's parser (a comparison counts 2 to 4, each NOT "
                + "or group of conditions around it 1, each relationship of a key path 3: this one comes to \(sqlDepth), more than "
                + "\(Self.maxSQLDepth)); simplify it.", offset: 0)
        }
    }

    /// How many comparisons a predicate may hold: SQLite refuses an expression tree deeper than 1000,
    /// which a flat chain of a thousand `OR`s is.
    public static let maxTerms = 500
    /// How deep the SQL of a predicate may nest (`sqlDepth`): SQLite's parser stack holds 18 NOTs around a
    /// comparison, or 7 correlated subqueries, as the predicate SQL writes them.
    public static let maxSQLDepth = 20

    /// The comparisons in the predicate.
    var termCount: Int {
        switch self {
        case .comparison, .inList, .relatedCount: 1
        case .constant: 0
        case let .not(operand): operand.termCount
        case let .and(operands), let .or(operands): operands.reduce(0) { $0 + $1.termCount }
        case let .related(_, _, predicate): predicate.termCount
        }
    }

    /// How deep the predicate's SQL nests (SharedStore's `PredicateSQL`), measured against SQLite 3.40:
    /// 2 for a comparison (3 for CONTAINS and IN, 4 for BEGINSWITH and ENDSWITH, which are function
    /// calls), 1 more for each NOT and each group of two or more conditions, 3 more for each relationship
    /// of a key path (a correlated subquery).
    var sqlDepth: Int {
        switch self {
        case let .comparison(_, op, _): op == .beginsWith || op == .endsWith ? 4 : op == .contains ? 3 : 2
        case .inList: 3
        case .constant: 0
        case .relatedCount: 3
        case let .not(operand): 1 + operand.sqlDepth
        case let .and(operands), let .or(operands): (operands.count > 1 ? 1 : 0) + (operands.map(\.sqlDepth).max() ?? 0)
        case let .related(_, _, predicate): 3 + predicate.sqlDepth
        }
    }
}

/// A token of the predicate language, with where it starts.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case word(String)
        case number(String)
        case text(String)
        case symbol(String)
        case end
    }

    var kind: Kind
    var offset: Int
}

/// Recursive descent over the tokens: `or := and (OR and)*`, `and := unary (AND unary)*`,
/// `unary := NOT unary | TRUEPREDICATE | FALSEPREDICATE | ( or ) | comparison`,
/// `comparison := attribute op literal | attribute IN { literal, ... }`.
struct PredicateParser {
    private let tokens: [PredicateToken]
    private let entity: (any PredicateSchema)?
    private(set) var index = 0
    /// How deep the parser is in NOT, parentheses and key paths: bounded, so a hostile predicate cannot
    /// exhaust the stack.
    private var depth: Int

    static var maxDepth: Int { FetchPredicate.maxDepth }

    init(tokens: [PredicateToken], entity: (any PredicateSchema)?, depth: Int = 0) {
        self.tokens = tokens
        self.entity = entity
        self.depth = depth
    }

    /// Goes one level deeper, or says the predicate nests too deep at `offset`.
    private mutating func descend(at offset: Int) throws(FetchPredicateError) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw FetchPredicateError(message: "the predicate nests NOT, parentheses and key paths more than \(Self.maxDepth) levels deep; simplify it.",
                                      offset: offset)
        }
    }

    mutating func parse() throws(FetchPredicateError) -> FetchPredicate {
        let predicate = try parseOr()
        guard case .end = current.kind else {
            throw FetchPredicateError(message: "unexpected \(describe(current)) in the predicate; join conditions with AND or OR.",
                                 offset: current.offset)
        }
        return predicate
    }

    private var current: PredicateToken { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isKeyword(_ names: String...) -> Bool {
        switch current.kind {
        case let .word(word): names.contains(word.uppercased())
        case let .symbol(symbol): names.contains(symbol)
        default: false
        }
    }

    private mutating func parseOr() throws(FetchPredicateError) -> FetchPredicate {
        var operands = [try parseAnd()]
        while isKeyword("OR", "||") {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> FetchPredicate {
        var operands = [try parseUnary()]
        while isKeyword("AND", "&&") {
            advance()
            operands.append(try parseUnary())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseUnary() throws(FetchPredicateError) -> FetchPredicate {
        if isKeyword("NOT", "!") {
            try descend(at: current.offset)
            defer { depth -= 1 }
            advance()
            return .not(try parseUnary())
        }
        if isKeyword("TRUEPREDICATE") || isKeyword("FALSEPREDICATE") {
            defer { advance() }
            return .constant(isKeyword("TRUEPREDICATE"))
        }
        if current.kind == .symbol("(") {
            let open = current.offset
            try descend(at: open)
            defer { depth -= 1 }
            advance()
            let inner = try parseOr()
            guard current.kind == .symbol(")") else {
                throw FetchPredicateError(message: "the parenthesis opened here is never closed; add ')'.", offset: open)
            }
            advance()
            return inner
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(FetchPredicateError) -> FetchPredicate {
        var quantifier: (RelationshipQuantifier, Int)?
        // A quantifier is followed by a key path; `all == 2` compares an attribute named all.
        if case let .word(word) = current.kind, ["ANY", "SOME", "ALL", "NONE"].contains(word.uppercased()),
           case .word = tokens[min(index + 1, tokens.count - 1)].kind {
            quantifier = (RelationshipQuantifier(rawValue: word.uppercased() == "SOME" ? "ANY" : word.uppercased())!, current.offset)
            advance()
        }
        let token = current
        guard case let .word(name) = token.kind, !Self.reserved.contains(name.uppercased()) else {
            throw FetchPredicateError(message: "expected an attribute name but found \(describe(token)); write a condition like rank > 2.",
                                 offset: token.offset)
        }
        if quantifier != nil || tokens[min(index + 1, tokens.count - 1)].kind == .symbol(".") || isRelationship(name) {
            return try parseKeyPath(name, at: token.offset, quantifier: quantifier)
        }
        let type = try lookUp(name, at: token.offset)
        advance()
        if isKeyword("IN") {
            advance()
            return .inList(attribute: name, values: try parseList(for: type))
        }
        let op = try parseOperator()
        let literal = current
        advance()
        return .comparison(attribute: name, op: op, value: try Self.value(of: literal, for: name, type: type, op: op))
    }

    private func isRelationship(_ name: String) -> Bool {
        entity?.predicateAttribute(name) == .relationship
    }

    /// `tags.name == 'x'` after an optional quantifier, `tags.@count > 1`, or a to-one `folder == nil`; a
    /// path may follow several relationships (`ANY folder.notes.title == 'x'`, `folder.owner.name == 'x'`).
    ///
    /// `inherited` is the quantifier of the path this relationship continues (after its first one): the
    /// path's objects are those every step reaches, as `NSPredicate` flattens them, so `ANY` and `ALL`
    /// apply at each step and `NONE` is the first step's (not any of what the rest reaches).
    private mutating func parseKeyPath(_ name: String, at offset: Int, quantifier: (RelationshipQuantifier, Int)?,
                                       inherited: RelationshipQuantifier? = nil, nested: Bool = false)
        throws(FetchPredicateError) -> FetchPredicate
    {
        try descend(at: offset)
        defer { depth -= 1 }
        let relationship = try lookUpRelationship(name, at: offset)
        advance()
        guard current.kind == .symbol(".") else {
            // `folder == nil`, `folder != nil`: whether the to-one holds an object.
            if quantifier == nil, relationship.map({ !$0.toMany }) ?? true, isKeyword("==", "=", "!=", "<>") {
                let op = try parseOperator()
                guard case .word(let word) = current.kind, ["nil", "null"].contains(word.lowercased()) else {
                    throw FetchPredicateError(message: "a to-one relationship compares with nil only, like \(name) == nil; "
                        + "compare one of its attributes with \(name).attribute.", offset: current.offset)
                }
                advance()
                return .relatedCount(relationship: name, op: op == .equal ? .equal : .greater, count: 0)
            }
            throw FetchPredicateError(message: "'\(name)' is a relationship; follow it to an attribute (\(name).name == 'x', with "
                + "ANY, ALL or NONE for a to-many) or count it (\(name).@count > 0).", offset: current.offset)
        }
        advance()
        let keyToken = current
        guard case .word(let key) = keyToken.kind else {
            throw FetchPredicateError(message: "expected an attribute of \(name) or @count after '\(name).', but found \(describe(keyToken)).",
                                      offset: keyToken.offset)
        }
        if key.lowercased() == "@count" {
            if let quantifier {
                throw FetchPredicateError(message: "\(quantifier.0.rawValue) does not apply to @count; write \(name).@count > 0.",
                                          offset: quantifier.1)
            }
            advance()
            let op = try parseOperator()
            guard !op.isTextual else {
                throw FetchPredicateError(message: "@count is a number; compare it with ==, !=, <, <=, > or >=.", offset: keyToken.offset)
            }
            let literal = current
            advance()
            guard case .number(let text) = literal.kind, let count = Int64(text) else {
                throw FetchPredicateError(message: "@count compares with a whole number, like \(name).@count > 1.", offset: literal.offset)
            }
            return .relatedCount(relationship: name, op: op, count: count)
        }
        if key.hasPrefix("@") {
            throw FetchPredicateError(message: "'\(key)' is not an aggregate this language has; use @count.", offset: keyToken.offset)
        }
        let pathQuantifier = quantifier?.0 ?? inherited
        if let relationship, relationship.toMany, pathQuantifier == nil {
            throw FetchPredicateError(message: "'\(name)' is a to-many relationship: say which of its objects must match, "
                + "like ANY \(name).\(key) == 'x' (or ALL, NONE), or count them with \(name).@count.", offset: offset)
        }
        var inner = PredicateParser(tokens: Array(tokens[index...]), entity: relationship?.destination, depth: depth)
        let predicate = try inner.parseDestination(inherited: pathQuantifier.map { $0 == .none ? .any : $0 })
        index += inner.index
        // A path of to-ones is nil when any object on it is: `folder.owner.name == nil` holds for a note
        // without a folder, as NSPredicate evaluates the key path to nil. It is: none of the path's objects
        // has a value.
        if !nested, pathQuantifier == nil, let negated = Self.negatedNilTest(predicate) {
            return .related(relationship: name, quantifier: .none, predicate: negated)
        }
        return .related(relationship: name, quantifier: pathQuantifier ?? .any, predicate: predicate)
    }

    /// For a path ending in a nil test (`name == nil`, a to-one's `owner == nil`), the same path ending in
    /// its negation; nil for any other predicate.
    private static func negatedNilTest(_ predicate: FetchPredicate) -> FetchPredicate? {
        switch predicate {
        case let .comparison(attribute, .equal, value) where value.isNull:
            .comparison(attribute: attribute, op: .notEqual, value: .null)
        case let .relatedCount(relationship, .equal, 0):
            .relatedCount(relationship: relationship, op: .greater, count: 0)
        case let .related(relationship, .any, inner):
            negatedNilTest(inner).map { .related(relationship: relationship, quantifier: .any, predicate: $0) }
        default:
            nil
        }
    }

    /// What follows `relationship.` in a key path: the destination's comparison (an attribute, an
    /// operator or IN, a literal), or the next relationship of a longer path.
    private mutating func parseDestination(inherited: RelationshipQuantifier?) throws(FetchPredicateError) -> FetchPredicate {
        let token = current
        guard case .word(let word) = token.kind else { return try parseComparison() }
        if ["ANY", "SOME", "ALL", "NONE"].contains(word.uppercased()), case .word = tokens[min(index + 1, tokens.count - 1)].kind {
            throw FetchPredicateError(message: "a quantifier goes before the whole key path, like ANY folder.notes.title == 'x'.",
                                      offset: token.offset)
        }
        if tokens[min(index + 1, tokens.count - 1)].kind == .symbol(".") || isRelationship(word) {
            return try parseKeyPath(word, at: token.offset, quantifier: nil, inherited: inherited, nested: true)
        }
        return try parseComparison()
    }

    private func lookUpRelationship(_ name: String, at offset: Int) throws(FetchPredicateError)
        -> (destination: any PredicateSchema, toMany: Bool)?
    {
        guard let entity else { return nil }
        switch entity.predicateAttribute(name) {
        case .relationship:
            guard let relationship = entity.predicateRelationship(name) else {
                throw FetchPredicateError(message: "'\(name)' is a relationship of \(entity.predicateEntityName), and this predicate "
                    + "cannot follow it here.", offset: offset)
            }
            return relationship
        case .attribute:
            throw FetchPredicateError(message: "'\(name)' is an attribute of \(entity.predicateEntityName), not a relationship; "
                + "compare it directly, like \(name) == 'x'.", offset: offset)
        case .unknown:
            throw FetchPredicateError(message: "\(entity.predicateEntityName) has no relationship '\(name)'", offset: offset)
        }
    }

    /// `{ literal, ... }` or `[ literal, ... ]`.
    private mutating func parseList(for type: AttributeType?) throws(FetchPredicateError) -> [Value] {
        let open = current
        guard open.kind == .symbol("{") || open.kind == .symbol("[") else {
            throw FetchPredicateError(message: "expected a list like {1, 2} after IN but found \(describe(open)).", offset: open.offset)
        }
        let close = open.kind == .symbol("{") ? "}" : "]"
        advance()
        var values: [Value] = []
        while current.kind != .symbol(close) {
            if !values.isEmpty {
                guard current.kind == .symbol(",") else {
                    throw FetchPredicateError(message: "expected ',' or '\(close)' in the IN list but found \(describe(current)).",
                                         offset: current.offset)
                }
                advance()
            }
            let literal = current
            advance()
            values.append(try Self.value(of: literal, for: "", type: type, op: .equal))
        }
        advance()
        return values
    }

    private func lookUp(_ name: String, at offset: Int) throws(FetchPredicateError) -> AttributeType? {
        guard let entity else { return nil }
        switch entity.predicateAttribute(name) {
        case .attribute(let type): return type
        case .relationship:
            throw FetchPredicateError(message: "'\(name)' is a relationship of \(entity.predicateEntityName); follow it to an attribute "
                + "(\(name).name == 'x', with ANY, ALL or NONE for a to-many) or count it (\(name).@count > 0).", offset: offset)
        case .unknown:
            throw FetchPredicateError(message: "\(entity.predicateEntityName) has no attribute '\(name)'"
                + Suggestion.hint(for: name, in: entity.predicateAttributeNames), offset: offset)
        }
    }

    private mutating func parseOperator() throws(FetchPredicateError) -> ComparisonOperator {
        let token = current
        let spelling: String
        switch token.kind {
        case let .symbol(symbol): spelling = symbol
        case let .word(word): spelling = word.uppercased()
        default: spelling = ""
        }
        let aliases: [String: ComparisonOperator] = ["=": .equal, "<>": .notEqual, "=<": .lessOrEqual, "=>": .greaterOrEqual]
        guard let op = ComparisonOperator(rawValue: spelling) ?? aliases[spelling] else {
            throw FetchPredicateError(message: "expected a comparison (==, !=, <, <=, >, >=, CONTAINS, BEGINSWITH, ENDSWITH or IN) "
                + "but found \(describe(token)).", offset: token.offset)
        }
        advance()
        return op
    }

    private func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case let .word(word): "'\(word)'"
        case let .number(number): "'\(number)'"
        case let .text(text): "'\(text)'"
        case let .symbol(symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }

    /// Words that are the language's own, never an attribute's name.
    static let reserved: Set<String> = ["AND", "OR", "NOT", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "TRUEPREDICATE", "FALSEPREDICATE"]
}

extension PredicateParser {
    /// The literal as a value of the attribute's type (or as written, when the type is unknown).
    static func value(of literal: PredicateToken, for name: String, type: AttributeType?, op: ComparisonOperator)
        throws(FetchPredicateError) -> Value
    {
        let raw: Value
        switch literal.kind {
        case let .number(text):
            if let int = Int64(text) {
                raw = .int(int)
            } else if let double = Double(text), double.isFinite {
                raw = .double(double)
            } else {
                throw FetchPredicateError(message: "'\(text)' is not a number a 64-bit integer or a double can hold.", offset: literal.offset)
            }
        case let .text(text): raw = .string(text)
        case let .word(word):
            switch word.lowercased() {
            case "true", "yes": raw = .bool(true)
            case "false", "no": raw = .bool(false)
            case "nil", "null": raw = .null
            default:
                throw FetchPredicateError(message: "'\(word)' is not a value; put text in quotes, like '\(word)'.", offset: literal.offset)
            }
        default:
            throw FetchPredicateError(message: "expected a value after '\(op.rawValue)', like 2 or 'text'.", offset: literal.offset)
        }
        switch (op.isTextual, raw) {
        case (false, _), (true, .string), (true, .null): break
        case (true, _):
            throw FetchPredicateError(message: "\(op.rawValue) compares text; put the value in quotes, like '\(raw.scenarioText)'.",
                                      offset: literal.offset)
        }
        guard let type else { return raw }
        return try coerce(raw, to: type, name: name, op: op, at: literal.offset)
    }

    private static func coerce(_ value: Value, to type: AttributeType, name: String, op: ComparisonOperator,
                               at offset: Int) throws(FetchPredicateError) -> Value {
        if value == .null {
            guard op == .equal || op == .notEqual else {
                throw FetchPredicateError(message: "nil can only be compared with == or !=.", offset: offset)
            }
            return .null
        }
        if op.isTextual, type != .string {
            throw FetchPredicateError(message: "\(op.rawValue) works on string attributes, and '\(name)' is \(type.rawValue).", offset: offset)
        }
        if op.isOrdering, type == .bool || type == .uuid {
            throw FetchPredicateError(message: "'\(name)' is \(type.rawValue), which has no order; compare it with == or !=.", offset: offset)
        }
        switch (type, value) {
        case (.string, .string), (.int, .int), (.int, .double), (.double, .double), (.bool, .bool):
            return value
        case let (.double, .int(int)):
            return .double(Double(int))
        case let (.date, .string(text)):
            if let date = Value.parseDate(text) { return .date(date) }
        case let (.uuid, .string(text)):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        default:
            break
        }
        let example = ["string": "'text'", "int": "3", "double": "2.5", "bool": "true",
                       "date": "'2024-05-01T12:00:00Z'", "uuid": "'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'"]
        throw FetchPredicateError(message: "'\(name)' is \(type.rawValue), so compare it with a value like "
            + "\(example[type.rawValue] ?? "3"), not \(value.scenarioText).", offset: offset)
    }
}
