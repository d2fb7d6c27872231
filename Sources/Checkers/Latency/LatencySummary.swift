import Histogram

/// The percentiles of a latency histogram, in nanoseconds.
public struct LatencySummary: Sendable, Hashable, Codable {
    public var count: Int
    public var min: UInt64
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var max: UInt64

    public init(count: Int, min: UInt64, p50: UInt64, p90: UInt64, p99: UInt64, max: UInt64) {
        self.count = count
        self.min = min
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// The summary of a histogram, or nil when it recorded nothing.
    init?(_ histogram: Histogram<UInt64>) {
        guard histogram.totalCount > 0 else { return nil }
        self.init(
            count: Int(histogram.totalCount), min: histogram.min,
            p50: histogram.valueAtPercentile(50), p90: histogram.valueAtPercentile(90),
            p99: histogram.valueAtPercentile(99), max: histogram.maxRecorded)
    }

    /// The value of a named percentile (`p50`, `p90`, `p99`, `max`).
    public func value(_ percentile: String) -> UInt64? {
        switch percentile {
        case "p50": p50
        case "p90": p90
        case "p99": p99
        case "max": max
        default: nil
        }
    }
}

/// One bar of a latency histogram: how many samples fell in `lower ..< upper` nanoseconds.
public struct LatencyBucket: Sendable, Hashable, Codable {
    public var lower: UInt64
    public var upper: UInt64
    public var count: Int

    public init(lower: UInt64, upper: UInt64, count: Int) {
        self.lower = lower
        self.upper = upper
        self.count = count
    }
}

extension Histogram<UInt64> {
    /// A histogram of latencies in nanoseconds, tracking up to an hour at three significant digits.
    static func latency() -> Histogram<UInt64> {
        Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)
    }

    /// Bars on a 1-2-5 scale from 10 µs (everything below in the first bar) up to the largest sample.
    func displayBuckets() -> [LatencyBucket] {
        guard totalCount > 0 else { return [] }
        var bounds: [UInt64] = [0]
        var step: UInt64 = 10_000
        var multipliers = [1, 2, 5].makeIterator()
        let top = maxRecorded
        while bounds.last! <= top {
            guard let m = multipliers.next() else {
                multipliers = [1, 2, 5].makeIterator()
                step *= 10
                continue
            }
            let bound = step * UInt64(m)
            if bound > bounds.last! { bounds.append(bound) }
        }
        var buckets = (0..<(bounds.count - 1)).map { LatencyBucket(lower: bounds[$0], upper: bounds[$0 + 1], count: 0) }
        for recorded in recordedValues() {
            let index = (bounds.lastIndex(atOrBefore: recorded.value) ?? 0).clamped(to: buckets.count - 1)
            buckets[index].count += Int(recorded.count)
        }
        return buckets
    }
}

extension [UInt64] {
    /// In an ascending array, the last index whose element is `<= value`.
    func lastIndex(atOrBefore value: UInt64) -> Int? {
        lastIndex(atOrBefore: value, time: { $0 })
    }
}

extension Int {
    func clamped(to upper: Int) -> Int { Swift.max(0, Swift.min(self, upper)) }
}
