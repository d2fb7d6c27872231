import Foundation

extension Value {
    /// Converts a scenario scalar (its YAML text) to a value of `type`.
    ///
    /// `"3"` as `.int` is `.int(3)`; `"yes"`/`"true"` as `.bool` is `.bool(true)`; dates take ISO 8601
    /// (`2024-05-01T10:00:00Z` or `2024-05-01`) or seconds since 1970; `nil`, `null` and `~` give `.null`.
    ///
    /// - Throws: `ValueConversionError` naming the text and the type when it does not fit.
    public static func from(scalar text: String, as type: AttributeType) throws(ValueConversionError) -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ["nil", "null", "~"].contains(trimmed) { return .null }
        switch type {
        case .string:
            return .string(text)
        case .int:
            if let i = Int64(trimmed) { return .int(i) }
        case .double:
            if let d = Double(trimmed) { return .double(d) }
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: break
            }
        case .date:
            if let seconds = Double(trimmed) { return .date(Date(timeIntervalSince1970: seconds)) }
            if let date = try? Date(trimmed, strategy: .iso8601) { return .date(date) }
            if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle().year().month().day()) {
                return .date(date)
            }
        case .uuid:
            if let uuid = UUID(uuidString: trimmed) { return .uuid(uuid) }
        }
        throw ValueConversionError(text: text, type: type)
    }

    /// Converts a value to `type` when the conversion loses nothing (`.int(1)` to `.double(1.0)`,
    /// `.string("3")` to `.int(3)`); `nil` otherwise. `.null` converts to every type.
    public func converted(to type: AttributeType) -> Value? {
        // The common case first: the value already has the attribute's type.
        switch (self, type) {
        case (.string, .string), (.int, .int), (.double, .double), (.null, _): return self
        default: break
        }
        return convertedSlowly(to: type)
    }

    private func convertedSlowly(to type: AttributeType) -> Value? {
        switch (self, type) {
        case (.null, _): return .null
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.date, .date), (.uuid, .uuid):
            return self
        case (.int(let i), .double): return .double(Double(i))
        case (.double, .int): return intValue.map(Value.int)
        case (.int(let i), .bool) where i == 0 || i == 1: return .bool(i == 1)
        case (.bool(let b), .int): return .int(b ? 1 : 0)
        case (.double(let d), .date): return .date(Date(timeIntervalSinceReferenceDate: d))
        case (.string(let s), _): return try? Value.from(scalar: s, as: type)
        case (_, .string): return .string(description)
        default: return nil
        }
    }
}

/// A scalar that does not fit an attribute's type.
public struct ValueConversionError: Error, Sendable, CustomStringConvertible {
    /// The text or value that was given.
    public let text: String
    /// The type it had to fit.
    public let type: AttributeType

    public var description: String { "`\(text)` is not a valid \(type) value" }
}
