/// A JSON value as `JSONReader` reads it: integers that fit 64 bits apart from other numbers.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// An integer that fits `Int64`.
    case integer(Int64)
    /// A non-negative integer above `Int64.max` that fits `UInt64`.
    case largeInteger(UInt64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value, when it is an integer that fits `Int64`.
    public var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The value, when it is a non-negative integer that fits `UInt64`.
    public var unsigned: UInt64? {
        switch self {
        case .integer(let value) where value >= 0: UInt64(value)
        case .largeInteger(let value): value
        default: nil
        }
    }

    /// The value, when it is an array of strings.
    public var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        var result: [String] = []
        result.reserveCapacity(items.count)
        for item in items {
            guard case .string(let text) = item else { return nil }
            result.append(text)
        }
        return result
    }
}
