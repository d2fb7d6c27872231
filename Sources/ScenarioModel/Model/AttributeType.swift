/// The type of an attribute in the scenario's model, as Core Data's attribute types.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
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
}

extension AttributeType: ScenarioKeyword {}
