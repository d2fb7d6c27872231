#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine-wide monotonic clock every process in a run stamps its events with.
///
/// `CLOCK_MONOTONIC` counts from the same origin in every process on one machine, so a time taken
/// in the process that posted a notification can be subtracted from a time taken in the process
/// that received it:
/// ```swift
/// let latency = MonotonicClock.now() - delivery.postedAt
/// ```
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary, machine-wide origin (`clock_gettime(CLOCK_MONOTONIC)`).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Nanoseconds in `duration`, rounded down; negative durations count as zero, and one too long
    /// for 64 bits as `UInt64.max` (never a trap).
    public static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        guard !whole.overflow else { return .max }
        let total = whole.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return total.overflow ? .max : total.partialValue
    }
}
