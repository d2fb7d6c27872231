import Basics

/// One optimistic-locking conflict: what this context had and what the store had.
public struct SaveConflict: Sendable, CustomStringConvertible {
    /// The object.
    public let object: ObjectID
    /// The version (`Z_OPT`) this context's values came from.
    public let cachedVersion: Int64
    /// The version in the store; `nil` when the row was deleted.
    public let storeVersion: Int64?
    /// This context's values (what it read, with its changes on top).
    public let cachedValues: [String: Value]
    /// The store's values; empty when the row was deleted.
    public let storeValues: [String: Value]
    /// The properties this context changed.
    public let changedProperties: [String]
    /// The context's merge policy.
    public let policy: MergePolicy
    /// What the resolution kept.
    public let outcome: ConflictOutcome
    /// The values the object ended with (written, or taken from the store); empty on failure.
    public let resolvedValues: [String: Value]
    /// For a constraint conflict (Core Data's `NSConstraintConflict`): the unique attribute an insert
    /// shares with a row of the store, and that row; nil for an optimistic-locking conflict.
    public var constraint: String? = nil
    public var existingObject: ObjectID? = nil

    public var description: String {
        if let constraint, let existingObject {
            return "constraint conflict on \(object): its \(constraint) is \(existingObject)'s, policy \(policy.rawValue) -> \(outcome.rawValue)"
        }
        return "conflict on \(object): cached v\(cachedVersion), store \(storeVersion.map { "v\($0)" } ?? "deleted"), policy \(policy.rawValue) -> \(outcome.rawValue)"
    }
}
