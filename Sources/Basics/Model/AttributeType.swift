/// The type of an attribute, as a scenario declares it and a store holds it.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Text (`NSString`).
    case string
    /// A 64-bit integer (`Integer 64`).
    case int
    /// A double-precision number (`Double`).
    case double
    /// A Boolean (`Boolean`).
    case bool
    /// A point in time (`Date`).
    case date
    /// A UUID; an entity's first `uuid` attribute is its global identifier across synced stores.
    case uuid

    public var description: String { rawValue }
}
