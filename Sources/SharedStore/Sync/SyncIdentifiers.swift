import Basics
import Foundation

/// Where a sync ensemble's new identifiers come from: a row's global identifier when it has no `uuid`
/// value, and the random suffix of the store's ensemble identifier.
///
/// On a device both are random. A deterministic run seeds them, so that replaying it by seed writes the
/// same identifiers, and with them the same index pages and store sizes. Each seeded draw is the
/// SplitMix64 sequence from the seed: a process's seed mixed with its launch gives every launch its own
/// stream, and 128 bits a draw keep two streams from meeting.
public struct SyncIdentifiers: Sendable {
    private var state: UInt64?

    /// Random identifiers, as on a device.
    public static let random = SyncIdentifiers(state: nil)

    /// Identifiers drawn from `seed`: the same seed gives the same sequence.
    public static func seeded(_ seed: UInt64) -> SyncIdentifiers {
        SyncIdentifiers(state: seed)
    }

    /// The next identifier.
    public mutating func next() -> UUID {
        guard let current = state else { return UUID() }
        let high = StableHash.splitMix64(current)
        let low = StableHash.splitMix64(current &+ 1)
        state = current &+ 2
        return StableHash.uuid(high: high, low: low)
    }
}
