import Synchronization

/// Where a run's times come from, for the runner and for every agent alike: the machine's monotonic
/// clock (real time), or a virtual clock that moves only when told (the deterministic mode).
///
/// The one definition of time in a run. Code that stamps an event takes a `reading()`; code that waits
/// out a span says so with `pass(to:)` or `pass(by:)`, which moves a virtual clock and does nothing to
/// the machine's, where the span passed by itself.
/// ```swift
/// let time: any TimeSource = VirtualTime(start: VirtualTime.origin)
/// let t = time.reading()          // 1_000_000_000, and the clock moves one tick
/// time.pass(by: 2_000_000)        // a 2 ms wait, waited in virtual time
/// ```
public protocol TimeSource: AnyObject, Sendable {
    /// A reading for a trace event. A virtual clock moves one tick per reading, so that the events of
    /// one run are distinct and ordered.
    func reading() -> UInt64
    /// Now, without moving the clock.
    var now: UInt64 { get }
    /// A wait until `t` is over. A virtual clock moves there (never back); real time already did.
    func pass(to t: UInt64)
    /// A wait of `nanos` is over (see `pass(to:)`).
    func pass(by nanos: UInt64)
}

/// Real time: the machine's monotonic clock, which passes on its own.
public final class MachineTime: TimeSource {
    public init() {}

    public func reading() -> UInt64 { MonotonicClock.now() }
    public var now: UInt64 { MonotonicClock.now() }
    public func pass(to t: UInt64) {}
    public func pass(by nanos: UInt64) {}
}

/// The deterministic mode's time: nanoseconds that move only by readings (one tick each) and by waits
/// the owner passes. Shared between threads safely, though one run's clock is read by one thread.
public final class VirtualTime: TimeSource {
    private let value: Atomic<UInt64>
    /// What one reading costs: one microsecond.
    public static let tick: UInt64 = 1_000
    /// Where a run's virtual time starts: one second, so that no time in a trace is zero.
    public static let origin: UInt64 = 1_000_000_000

    /// A clock that reads `start` first.
    public init(start: UInt64 = VirtualTime.origin) {
        value = Atomic(start)
    }

    public func reading() -> UInt64 {
        value.wrappingAdd(Self.tick, ordering: .relaxed).oldValue
    }

    public var now: UInt64 { value.load(ordering: .relaxed) }

    public func pass(to t: UInt64) {
        _ = value.max(t, ordering: .relaxed)
    }

    public func pass(by nanos: UInt64) {
        var current = value.load(ordering: .relaxed)
        while true {
            let (next, overflow) = current.addingReportingOverflow(nanos)
            let (done, actual) = value.compareExchange(expected: current, desired: overflow ? .max : next, ordering: .relaxed)
            if done { return }
            current = actual
        }
    }
}
