/// An invalid model: names the entity, the property when there is one, and what is wrong.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity at fault.
    public let entity: String
    /// The attribute or relationship at fault, when the problem is one property.
    public let property: String?
    /// What is wrong, as a sentence fragment.
    public let reason: String

    /// Creates an error.
    public init(entity: String, property: String? = nil, reason: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
    }

    public var description: String {
        if let property { return "model: \(entity).\(property): \(reason)" }
        return "model: \(entity): \(reason)"
    }
}
