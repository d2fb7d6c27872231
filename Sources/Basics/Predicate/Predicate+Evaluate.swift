import Foundation

extension FetchPredicate {
    /// Whether an object with these values matches. A missing value is null; null equals only null and
    /// orders with nothing; text operators compare UTF-8 bytes, case-sensitively (as `NSPredicate` does
    /// without `[c]`), and match nothing against null; numbers compare with numbers, dates with dates.
    /// SharedStore's SQL for the same predicate selects the same rows.
    public func evaluate(_ values: [String: Value]) -> Bool {
        evaluate(values, related: { _ in [] })
    }

    /// Whether an object with these values matches, `related` giving the objects a relationship holds
    /// (for key paths: `ANY tags.name == 'x'` holds for some of them, `ALL` for every one, vacuously for
    /// none, `NONE` for none; `tags.@count` counts them). Each related object gives its own related
    /// objects, for a longer path.
    public func evaluate(_ values: [String: Value], related: (String) -> [PredicateObject]) -> Bool {
        switch self {
        case let .and(operands): return operands.allSatisfy { $0.evaluate(values, related: related) }
        case let .or(operands): return operands.contains { $0.evaluate(values, related: related) }
        case let .not(operand): return !operand.evaluate(values, related: related)
        case let .related(relationship, quantifier, predicate):
            let objects = related(relationship)
            func holds(_ object: PredicateObject) -> Bool { predicate.evaluate(object.values, related: object.related) }
            switch quantifier {
            case .any: return objects.contains(where: holds)
            case .all: return objects.allSatisfy(holds)
            case .none: return !objects.contains(where: holds)
            }
        case let .relatedCount(relationship, op, count):
            return op.holds(.int(Int64(related(relationship).count)), .int(count))
        case let .constant(flag): return flag
        case let .inList(attribute, list):
            let value = values[attribute] ?? .null
            return list.contains { !value.isNull && value.compare(to: $0) == .orderedSame }
        case let .comparison(attribute, op, literal):
            return op.holds(values[attribute] ?? .null, literal)
        }
    }
}

extension ComparisonOperator {
    /// Whether `value op literal` holds (see `FetchPredicate.evaluate`).
    public func holds(_ value: Value, _ literal: Value) -> Bool {
        if isTextual {
            guard case .string(let text) = value, case .string(let part) = literal else { return false }
            return Self.matches(text, self, part)
        }
        if literal.isNull || value.isNull {
            let same = literal.isNull && value.isNull
            switch self {
            case .equal: return same
            case .notEqual: return !same
            default: return false
            }
        }
        guard let order = value.compare(to: literal) else { return self == .notEqual }
        switch self {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        case .contains, .beginsWith, .endsWith: return false
        }
    }

    /// Byte-wise `CONTAINS`, `BEGINSWITH` and `ENDSWITH` on UTF-8, as SQLite's `instr` and `substr` do.
    static func matches(_ text: String, _ op: ComparisonOperator, _ part: String) -> Bool {
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

/// An object a key path reaches, for evaluating a predicate in memory: its values, and the objects its
/// own relationships hold (asked for only when a longer path follows them).
public struct PredicateObject {
    /// Its attribute values by name.
    public let values: [String: Value]
    /// The objects its relationship of that name holds.
    public let related: (String) -> [PredicateObject]

    /// An object with `values`, whose relationships `related` gives.
    public init(values: [String: Value], related: @escaping (String) -> [PredicateObject] = { _ in [] }) {
        self.values = values
        self.related = related
    }
}
