import Basics
import Foundation
import SharedStore
import Synchronization

/// The agent's time for its trace: the machine's monotonic clock, or in the deterministic mode a
/// virtual time the runner hands it with each request. Every virtual reading advances it by one
/// microsecond, so the events of one step are distinct and ordered and no two processes' events tie
/// (only one agent acts at a time).
final class AgentTime: Sendable {
    /// Whether time is virtual (the deterministic mode).
    let isVirtual: Bool
    private let virtual: Atomic<UInt64>
    /// What one reading of the virtual clock costs.
    static let tick: UInt64 = 1_000

    init(virtualStart: UInt64?) {
        isVirtual = virtualStart != nil
        virtual = Atomic(virtualStart ?? 0)
    }

    /// Now: a reading of the monotonic clock, or the virtual time (then one tick later).
    func now() -> UInt64 {
        guard isVirtual else { return MonotonicClock.now() }
        return virtual.wrappingAdd(Self.tick, ordering: .relaxed).oldValue
    }

    /// The virtual time without advancing it.
    var current: UInt64 { isVirtual ? virtual.load(ordering: .relaxed) : MonotonicClock.now() }

    /// Moves virtual time forward to `t` (never back).
    func advance(to t: UInt64) {
        guard isVirtual else { return }
        _ = virtual.max(t, ordering: .relaxed)
    }

    /// Moves virtual time forward by `nanos` (a wait that really happened: a busy timeout).
    func advance(by nanos: UInt64) {
        guard isVirtual else { return }
        _ = virtual.wrappingAdd(nanos, ordering: .relaxed)
    }
}

/// The simulated wall clock: the real time plus every `clock: advance` so far; in the deterministic
/// mode a fixed date (2026-01-01T00:00:00Z) plus the virtual time.
///
/// History timestamps, purges by age and positive staleness intervals run on it; waits, `within`
/// and latency run on the monotonic (or virtual) clock instead.
final class AgentClock: StoreClock, Sendable {
    private let offset: Atomic<UInt64>
    private let time: AgentTime
    /// The wall-clock date of virtual time zero.
    static let virtualEpoch = Date(timeIntervalSince1970: 1_767_225_600)

    init(offsetNanos: UInt64, time: AgentTime) {
        offset = Atomic(offsetNanos)
        self.time = time
    }

    var now: Date {
        let offset = Double(offset.load(ordering: .relaxed)) / 1e9
        guard time.isVirtual else { return Date().addingTimeInterval(offset) }
        return Self.virtualEpoch.addingTimeInterval(Double(time.current) / 1e9 + offset)
    }

    func advance(byNanos nanos: UInt64) {
        _ = offset.wrappingAdd(nanos, ordering: .relaxed)
    }
}
