import Basics
import Foundation

/// A property value as the trace records it: a JSON scalar.
///
/// Dates are recorded as seconds since 1970 (`double`) and UUIDs as their string form, so that
/// two processes that read the same committed value always record equal `TraceValue`s.
public enum TraceValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: most values are, and each type that does not match throws an error whose
        // description is built, which costs more than the decoding. No JSON number or boolean decodes as a
        // string, so the order changes nothing else.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else {
            self = .double(try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }

    /// The value as a person reads it in a report: strings quoted, `nil` for null.
    public var description: String {
        switch self {
        case .null: "nil"
        case .string(let value):
            // Reports print values in sentences: a long one is cut, saying how much was left out, and none
            // can break the sentence's line or drive a terminal (`VisibleText`).
            value.count > 200 ? "\"\(VisibleText.escaped(String(value.prefix(200))))…\" (\(value.count) characters)"
                : "\"\(VisibleText.escaped(value))\""
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        }
    }

    /// Strings are equal when their bytes are, as `NSString`'s `isEqual:` and SQLite compare them: "é" and
    /// "e" + U+0301 are two values (Swift's `==` on `String` would call them equal).
    public static func == (lhs: TraceValue, rhs: TraceValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.string(let a), .string(let b)): Self.sameBytes(a, b)
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .string(let value):
            hasher.combine(1)
            hasher.combine(value.utf8.count)
            var value = value
            value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .int(let value): hasher.combine(2); hasher.combine(value)
        case .double(let value): hasher.combine(3); hasher.combine(value)
        case .bool(let value): hasher.combine(4); hasher.combine(value)
        }
    }

    /// Whether two strings hold the same UTF-8 bytes, compared as buffers (a string's UTF-8 view compared
    /// element by element costs a long value's checking more than anything else it does).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { left in
            b.withUTF8 { right in
                // By memcmp: compared byte by byte, the buffers cost a read's judgment more than its lookups.
                guard let l = left.baseAddress, let r = right.baseAddress else { return true }
                return memcmp(l, r, left.count) == 0
            }
        }
    }

    /// Numeric equality across `int` and `double` (a scenario's `rank: 1` may be read back as 1.0).
    public func matches(_ other: TraceValue) -> Bool {
        // Strings, the usual values, compared without pairing the two values first (a copy of each).
        if case .string(let a) = self {
            guard case .string(let b) = other else { return false }
            return Self.sameBytes(a, b)
        }
        return switch (self, other) {
        case (.int(let a), .double(let b)): Double(a) == b
        case (.double(let a), .int(let b)): a == Double(b)
        default: self == other
        }
    }
}

/// Property name to value, as read or written.
public typealias TraceValues = [String: TraceValue]
