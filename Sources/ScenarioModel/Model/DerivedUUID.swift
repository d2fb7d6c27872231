import Basics
import Foundation

extension Value {
    /// A UUID derived from a scenario object id and an attribute name (version 4 bits set, but
    /// deterministic): the same id gives the same UUID in every process and on every run.
    public static func derivedUUID(objectID: String, attribute: String) -> Value {
        let high = StableHash.splitMix64(StableHash.fnv1a64("uuid:\(attribute):\(objectID)"))
        return .uuid(StableHash.uuid(high: high, low: StableHash.splitMix64(high)))
    }
}
