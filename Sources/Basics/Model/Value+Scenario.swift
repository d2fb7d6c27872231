import Foundation

extension Value {
    /// The type of the value, or nil for ``null``.
    public var type: AttributeType? {
        switch self {
        case .string: .string
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .date: .date
        case .uuid: .uuid
        case .null: nil
        }
    }

    /// The zero value of a type: `""`, `0`, `0.0`, `false`, the reference date, the nil UUID.
    public static func zero(of type: AttributeType) -> Value {
        switch type {
        case .string: .string("")
        case .int: .int(0)
        case .double: .double(0)
        case .bool: .bool(false)
        case .date: .date(Date(timeIntervalSinceReferenceDate: 0))
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        }
    }

    /// The value as a scenario writes it: `A`, `3`, `true`, ISO 8601 dates in UTC, `null`.
    public var scenarioText: String {
        switch self {
        case let .date(value): Value.formatDate(value)
        case .null: "null"
        default: description
        }
    }

    /// ISO 8601 in UTC, with fractional seconds when there are any.
    public static func formatDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        if date.timeIntervalSinceReferenceDate.rounded(.down) != date.timeIntervalSinceReferenceDate {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
        return formatter.string(from: date)
    }

    /// Parses `2024-05-01T12:00:00Z`, with fractional seconds or a `+02:00` offset, or a plain
    /// `2024-05-01` (midnight UTC).
    public static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

extension Value {
    private enum CodingKeys: String, CodingKey {
        case string, int, double, bool, date, uuid, null
    }

    /// Decodes the one-key form written by ``encode(to:)``, for example `{"int": 3}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "A value has exactly one type key."))
        }
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .int: self = .int(try container.decode(Int64.self, forKey: key))
        case .double: self = .double(try container.decode(Double.self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date:
            let seconds = try container.decode(Double.self, forKey: key)
            self = .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid: self = .uuid(try container.decode(UUID.self, forKey: key))
        case .null: self = .null
        }
    }

    /// Encodes as one key naming the type: `{"string": "A"}`, `{"date": 0.5}` (seconds since 2001),
    /// `{"null": true}`: exact, whatever the type (a date is not confused with a double).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .string(value): try container.encode(value, forKey: .string)
        case let .int(value): try container.encode(value, forKey: .int)
        case let .double(value): try container.encode(value, forKey: .double)
        case let .bool(value): try container.encode(value, forKey: .bool)
        case let .date(value): try container.encode(value.timeIntervalSinceReferenceDate, forKey: .date)
        case let .uuid(value): try container.encode(value, forKey: .uuid)
        case .null: try container.encode(true, forKey: .null)
        }
    }
}
