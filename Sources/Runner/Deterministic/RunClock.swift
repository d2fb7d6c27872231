import Basics

/// The runner's time: the machine's monotonic clock, or in the deterministic mode a virtual clock the
/// runner alone moves. Every virtual reading advances it by one microsecond, so the runner's events
/// are distinct and ordered; an agent's reply moves it past the agent's own readings.
final class RunClock {
    let isVirtual: Bool
    private var virtual: UInt64
    /// Where virtual time starts (one second, so no time in a trace is zero).
    static let virtualStart: UInt64 = 1_000_000_000
    /// What one virtual reading costs.
    static let tick: UInt64 = 1_000

    init(mode: RunMode) {
        isVirtual = mode == .deterministic
        virtual = Self.virtualStart
    }

    /// A reading: the monotonic clock, or the virtual time (then one tick later).
    func now() -> UInt64 {
        guard isVirtual else { return MonotonicClock.now() }
        defer { virtual &+= Self.tick }
        return virtual
    }

    /// The time without advancing it.
    var current: UInt64 { isVirtual ? virtual : MonotonicClock.now() }

    /// Moves virtual time forward to `t` (never back; real time moves by itself).
    func advance(to t: UInt64) {
        if isVirtual { virtual = Swift.max(virtual, t) }
    }
}
