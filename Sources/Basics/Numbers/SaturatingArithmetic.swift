/// Arithmetic on times and counts that stops at the ends of the range instead of trapping: a deadline
/// `now + within` from a user's huge `within` is "never", not a crash.
extension UInt64 {
    /// `self + other`, or `UInt64.max` past it.
    public func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// `self - other`, or 0 below zero.
    public func subtractingClamped(_ other: UInt64) -> UInt64 { self >= other ? self - other : 0 }

    /// `self * other`, or `UInt64.max` past it.
    public func multipliedClamped(by other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}

extension Int64 {
    /// `self + other`, or `Int64.max` (`Int64.min`) past either end: the simulated clock moved by a user's
    /// huge `sleep` or `clock: advance` stops at "never".
    public func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
