import Foundation
import SharedStore
import Synchronization

/// The simulated wall clock: the real time plus every `clock: advance` so far.
///
/// History timestamps, purges by age and positive staleness intervals run on it; waits, `within`
/// and latency run on the monotonic clock instead.
final class AgentClock: StoreClock, Sendable {
    private let offset: Atomic<UInt64>

    init(offsetNanos: UInt64) {
        offset = Atomic(offsetNanos)
    }

    var now: Date {
        Date().addingTimeInterval(Double(offset.load(ordering: .relaxed)) / 1e9)
    }

    func advance(byNanos nanos: UInt64) {
        offset.add(nanos, ordering: .relaxed)
    }
}
