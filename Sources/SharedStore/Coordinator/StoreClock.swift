import Foundation

/// The simulated wall clock the store reads: history timestamps, purges by age, and positive
/// staleness intervals. The runner moves it forward on `clock: advance`.
public protocol StoreClock: Sendable {
    /// The current simulated time.
    var now: Date { get }
}

/// The real wall clock.
public struct SystemClock: StoreClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}

/// A clock that moves only when told to: tests and the runner use it.
///
/// ```swift
/// let clock = ManualClock(now: Date(timeIntervalSince1970: 1_700_000_000))
/// clock.advance(by: 8 * 86_400)
/// ```
public final class ManualClock: StoreClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// Creates a clock showing `now`.
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = now
    }

    /// The time it shows.
    public var now: Date {
        lock.withLock { current }
    }

    /// Moves the clock forward (or back, with a negative interval) by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// Sets the time it shows.
    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
