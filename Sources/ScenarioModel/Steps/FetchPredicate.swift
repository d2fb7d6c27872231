/// A `where:` filter, parsed and checked against the entity's attributes.
///
/// The language is a small part of `NSPredicate`'s: comparisons of an attribute with a literal
/// (`rank > 2`, `title == 'A'`, `body == nil`, `title CONTAINS 'x'`), joined by `AND` / `&&`, `OR` / `||`,
/// `NOT` / `!` and parentheses.
public indirect enum FetchPredicate: Sendable, Hashable, Codable {
    /// `attribute op value`.
    case comparison(attribute: String, op: ComparisonOperator, value: AttributeValue)
    /// Every operand holds.
    case and([FetchPredicate])
    /// At least one operand holds.
    case or([FetchPredicate])
    /// The operand does not hold.
    case not(FetchPredicate)
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)

    /// The attributes the predicate reads.
    public var attributes: Set<String> {
        switch self {
        case let .comparison(attribute, _, _): [attribute]
        case let .and(operands), let .or(operands): operands.reduce(into: []) { $0.formUnion($1.attributes) }
        case let .not(operand): operand.attributes
        case .constant: []
        }
    }

    /// Whether an object with these values matches (a missing value counts as null).
    public func matches(_ values: [String: AttributeValue]) -> Bool {
        switch self {
        case let .comparison(attribute, op, value):
            op.holds(values[attribute] ?? .null, value)
        case let .and(operands): operands.allSatisfy { $0.matches(values) }
        case let .or(operands): operands.contains { $0.matches(values) }
        case let .not(operand): !operand.matches(values)
        case let .constant(value): value
        }
    }
}

/// A comparison in a `where:` predicate.
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"

    /// Whether this operator orders values (and so needs a number, a date or a string).
    var isOrdering: Bool { [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }

    /// Whether this operator works on text only.
    var isTextual: Bool { [.contains, .beginsWith, .endsWith].contains(self) }

    /// Whether `lhs op rhs` holds. Null equals only null and orders with nothing.
    func holds(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        switch self {
        case .equal: return ComparisonOperator.equal(lhs, rhs)
        case .notEqual: return !ComparisonOperator.equal(lhs, rhs)
        case .contains, .beginsWith, .endsWith:
            guard case let .string(text) = lhs, case let .string(part) = rhs else { return false }
            if self == .contains { return text.contains(part) }
            return self == .beginsWith ? text.hasPrefix(part) : text.hasSuffix(part)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = ComparisonOperator.order(lhs, rhs) else { return false }
            switch self {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    private static func equal(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        if let order = order(lhs, rhs) { return order == 0 }
        return lhs == rhs
    }

    /// -1, 0 or 1 for values of comparable kinds (numbers with numbers), else nil.
    private static func order(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (lhs, rhs) {
        case let (.int(a), .int(b)): return sign(a, b)
        case let (.int(a), .double(b)): return sign(Double(a), b)
        case let (.double(a), .int(b)): return sign(a, Double(b))
        case let (.double(a), .double(b)): return sign(a, b)
        case let (.string(a), .string(b)): return sign(a, b)
        case let (.date(a), .date(b)): return sign(a, b)
        default: return nil
        }
    }
}

/// One key of a fetch's `sort:`: `rank` ascending, `-rank` descending.
public struct SortKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The attribute sorted by.
    public var attribute: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort key.
    public init(attribute: String, ascending: Bool = true) {
        self.attribute = attribute
        self.ascending = ascending
    }

    /// `rank` or `-rank`.
    public var description: String { (ascending ? "" : "-") + attribute }
}
