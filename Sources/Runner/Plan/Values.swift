import Foundation
import ScenarioModel
import Trace

extension AttributeValue {
    /// The value as the trace and the agent protocol carry it (dates as seconds since 1970).
    var traceValue: TraceValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        case .date(let date): .double(date.timeIntervalSince1970)
        case .uuid(let uuid): .string(uuid.uuidString)
        case .null: .null
        }
    }
}

extension Dictionary where Key == String, Value == AttributeValue {
    var traceValues: TraceValues { mapValues(\.traceValue) }
}

extension ScenarioModel.Duration {
    /// The duration in nanoseconds, for the monotonic clock (never negative).
    var nanos: UInt64 { UInt64(max(0, nanoseconds)) }
}

extension FetchPredicate {
    /// The predicate in SharedStore's syntax (`rank > 2 and not (title == "A")`).
    var storeText: String {
        switch self {
        case .comparison(let attribute, let op, let value):
            return "\(attribute) \(op.rawValue) \(value.predicateLiteral)"
        case .and(let operands):
            return operands.isEmpty ? "TRUEPREDICATE" : "(" + operands.map(\.storeText).joined(separator: " and ") + ")"
        case .or(let operands):
            return operands.isEmpty ? "FALSEPREDICATE" : "(" + operands.map(\.storeText).joined(separator: " or ") + ")"
        case .not(let operand):
            return "not (\(operand.storeText))"
        case .constant(let flag):
            return flag ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }
}

extension AttributeValue {
    /// A literal of SharedStore's predicate syntax.
    var predicateLiteral: String {
        switch self {
        case .string(let text):
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return String(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): return "\"\(uuid.uuidString)\""
        case .null: return "nil"
        }
    }
}

extension AttributeValue {
    /// A default value in SharedStore's model syntax (`= "text"`, `= 3`, `= 2024-05-01T00:00:00Z`).
    var defaultLiteral: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .date(let date): return date.ISO8601Format()
        case .uuid(let uuid): return uuid.uuidString
        default: return predicateLiteral
        }
    }
}
