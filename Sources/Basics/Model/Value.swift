import Foundation

// Why this type spans several files: the value is shared by every layer, and each layer's view of it
// (conversion between types, the scenario's spelling, the trace's JSON form, the UUID derived from a
// scenario id) lives in an extension beside the code that needs it, not in the type's own file.

/// One attribute value: what a row stores and an object holds, what a scenario's `set:`, `expect:`,
/// defaults and `where:` literals hold once checked against the model's types.
///
/// SharedStore stores dates the way Core Data does (seconds since 2001-01-01, `REAL`); UUIDs as a
/// 16-byte `BLOB`; booleans as `0`/`1`.
public enum Value: Hashable, Sendable, Codable, CustomStringConvertible {
    /// No value (SQL `NULL`).
    case null
    /// A string.
    case string(String)
    /// A 64-bit integer.
    case int(Int64)
    /// A double.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)

    /// Whether the value is `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The string, when the value is `.string`.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The value as an integer, when it is `.int`, `.bool` or an integral `.double`.
    public var intValue: Int64? {
        switch self {
        case .int(let i): i
        case .bool(let b): b ? 1 : 0
        case .double(let d) where d.rounded() == d: Int64(exactly: d)
        default: nil
        }
    }

    /// The value as a double, when it is numeric.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        case .bool(let b): b ? 1 : 0
        case .date(let d): d.timeIntervalSinceReferenceDate
        default: nil
        }
    }

    /// The boolean, when the value is `.bool` or an integer 0/1.
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): b
        case .int(let i): i != 0
        default: nil
        }
    }

    /// A plain rendering (`A`, `3`, `true`, ISO 8601 dates, `nil`) for traces and messages.
    public var description: String {
        switch self {
        case .null: "nil"
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): String(b)
        case .date(let d): d.formatted(.iso8601)
        case .uuid(let u): u.uuidString
        }
    }

    /// Orders two values of compatible kinds (numbers with numbers, strings with strings...);
    /// `nil` when they cannot be compared. `.null` sorts before everything, as in SQL.
    public func compare(to other: Value) -> ComparisonResult? {
        switch (self, other) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)): return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.uuid(let a), .uuid(let b)): return a == b ? .orderedSame : (a.uuidString < b.uuidString ? .orderedAscending : .orderedDescending)
        default:
            guard let a = doubleValue, let b = other.doubleValue else { return nil }
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// `"A"` is `.string("A")`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `3` is `.int(3)`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// `2.5` is `.double(2.5)`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` is `.bool(true)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}
