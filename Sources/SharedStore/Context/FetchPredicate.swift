/// A fetch predicate in a small language, a part of `NSPredicate`'s: comparisons `== != < <= > >=` of an
/// attribute with a string, number, boolean or `nil` literal; `CONTAINS`, `BEGINSWITH`, `ENDSWITH` with a
/// string (case-sensitive, as `NSPredicate` without `[c]`); `in [..]`; `TRUEPREDICATE`, `FALSEPREDICATE`;
/// `and`, `or`, `not` (also `&&`, `||`, `!`); parentheses. Keywords are case-insensitive.
///
/// ```swift
/// let p = try FetchPredicate("rank > 2 and (title == 'A' or pinned == true) and not rank in [5, 7]")
/// let q = try FetchPredicate("title BEGINSWITH 'Gro' or TRUEPREDICATE")
/// ```
/// A bare word on the right (`title == A`) is a string. A date attribute compares with an ISO 8601 string
/// or a number of seconds since 2001-01-01 (Core Data's reference date). Parse errors give the 1-based column.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    /// The predicate's text.
    public let text: String
    let root: Node

    indirect enum Node: Sendable, Hashable {
        case comparison(key: String, keyColumn: Int, op: Operator, value: Value)
        case inList(key: String, keyColumn: Int, values: [Value])
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        /// `TRUEPREDICATE` or `FALSEPREDICATE`.
        case constant(Bool)
    }

    enum Operator: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"

        /// Whether the operator matches text within a string (and so needs a string on both sides).
        var isTextual: Bool { self == .contains || self == .beginsWith || self == .endsWith }
    }

    /// Parses `text`.
    /// - Throws: `FetchPredicateError` with the column where parsing failed.
    public init(_ text: String) throws(FetchPredicateError) {
        self.text = text
        var parser = FetchPredicateParser(text: text)
        root = try parser.parse()
    }

    public var description: String { text }

    /// Whether `values` (attribute values by name) satisfy the predicate; a missing attribute is nil.
    public func evaluate(_ values: [String: Value]) -> Bool {
        Self.evaluate(root, values)
    }

    static func evaluate(_ node: Node, _ values: [String: Value]) -> Bool {
        switch node {
        case .and(let a, let b): return evaluate(a, values) && evaluate(b, values)
        case .or(let a, let b): return evaluate(a, values) || evaluate(b, values)
        case .not(let a): return !evaluate(a, values)
        case .constant(let flag): return flag
        case .inList(let key, _, let list):
            let value = values[key] ?? .null
            return list.contains { value.compare(to: $0) == .orderedSame }
        case .comparison(let key, _, let op, let literal):
            let value = values[key] ?? .null
            if op.isTextual {
                guard case .string(let text) = value, case .string(let part) = literal else { return false }
                return Self.matches(text, op, part)
            }
            if literal.isNull || value.isNull {
                let same = literal.isNull && value.isNull
                switch op {
                case .equal: return same
                case .notEqual: return !same
                default: return false
                }
            }
            guard let order = value.compare(to: literal) else { return op == .notEqual }
            switch op {
            case .equal: return order == .orderedSame
            case .notEqual: return order != .orderedSame
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            case .greaterOrEqual: return order != .orderedAscending
            case .contains, .beginsWith, .endsWith: return false  // returned above
            }
        }
    }
}

extension FetchPredicate {
    /// Whether `text` contains, begins or ends with `part`, comparing UTF-8 bytes as SQLite's `instr` and
    /// `substr` do (a fetch's SQL and an evaluation in memory must agree).
    static func matches(_ text: String, _ op: Operator, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(part.utf8)
        switch op {
        case .beginsWith: return bytes.starts(with: needle)
        case .endsWith: return bytes.count >= needle.count && bytes.suffix(needle.count).elementsEqual(needle)
        default:
            guard !needle.isEmpty else { return true }
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start..<start + needle.count].elementsEqual(needle) {
                return true
            }
            return false
        }
    }
}

/// A predicate or sort key that cannot be parsed, or names an attribute the entity lacks.
public struct FetchPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text being parsed.
    public let text: String
    /// The 1-based column of the problem.
    public let column: Int
    /// What is wrong.
    public let message: String

    public var description: String { "predicate `\(text)`, column \(column): \(message)" }
}
