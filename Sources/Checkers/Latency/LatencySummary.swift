
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

    /// The summary of `samples`, or nil when there are none: exact percentiles by nearest rank (the
    /// smallest sample with at least p% of the samples at or below it).
    init?(_ samples: LatencySamples) {
        let sorted = samples.sorted
        guard let first = sorted.first, let last = sorted.last else { return nil }
        func percentile(_ p: Int) -> UInt64 {
            let rank = (sorted.count * p + 99) / 100
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
        }
        self.init(count: sorted.count, min: first, p50: percentile(50), p90: percentile(90), p99: percentile(99), max: last)
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

/// The latencies of one stage, in nanoseconds, kept whole: a run has at most a few million of them,
/// and exact percentiles cost one sort. (A fixed-range histogram costs hundreds of kilobytes per pair
/// to allocate and scan, which dominated checking a small run.)
struct LatencySamples {
    private(set) var values: [UInt64] = []
    /// Whether `values` are in ascending order (`sort()`).
    private(set) var isSorted = false

    /// No samples yet, with room for `capacity`.
    init(capacity: Int = 0) { values.reserveCapacity(capacity) }

    mutating func record(_ value: UInt64) {
        values.append(value)
        isSorted = false
    }

    /// Puts the samples in ascending order, once for the summary and the bars both (each sorted or searched
    /// them on its own, a long run's hundreds of thousands per stage), in place, with `scratch` as the
    /// radix sort's second buffer (see `radixSort(scratch:)`).
    mutating func sort(scratch: inout [UInt64]) {
        guard !isSorted else { return }
        values.radixSort(scratch: &scratch)
        isSorted = true
    }

    /// The samples in ascending order.
    var sorted: [UInt64] { isSorted ? values : values.radixSorted() }

    /// Bars on a 1-2-5 scale from 10 µs (everything below in the first bar) up to the largest sample.
    func displayBuckets() -> [LatencyBucket] {
        guard let top = isSorted ? values.last : values.max() else { return [] }
        var bounds: [UInt64] = [0]
        var step: UInt64 = 10_000
        outer: while bounds.last! <= top {
            for m: UInt64 in [1, 2, 5] {
                let (bound, overflow) = step.multipliedReportingOverflow(by: m)
                if overflow { bounds.append(.max); break outer }
                if bound > bounds.last! { bounds.append(bound) }
                if bounds.last! > top { break outer }
            }
            let (next, overflow) = step.multipliedReportingOverflow(by: 10)
            if overflow { bounds.append(.max); break }
            step = next
        }
        var buckets = (0..<(bounds.count - 1)).map { LatencyBucket(lower: bounds[$0], upper: bounds[$0 + 1], count: 0) }
        if isSorted {
            // Each bar's samples follow the previous bar's: one walk, no search per sample.
            var index = 0
            for value in values {
                while index + 1 < buckets.count, bounds[index + 1] <= value { index += 1 }
                buckets[index].count += 1
            }
            return buckets
        }
        for value in values {
            let index = (bounds.lastIndex(atOrBefore: value) ?? 0).clamped(to: buckets.count - 1)
            buckets[index].count += 1
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
