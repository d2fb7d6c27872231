import Basics

extension Value {
    /// The value as the trace records it (dates as seconds since 1970, UUIDs as strings).
    public var traceValue: TraceValue {
        switch self {
        case .null: .null
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .double(date.timeIntervalSince1970)
        case .uuid(let uuid): .string(uuid.uuidString)
        }
    }
}

extension Dictionary where Key == String, Value == Basics.Value {
    /// The values as the trace records them.
    public var traceValues: TraceValues { mapValues(\.traceValue) }
}
