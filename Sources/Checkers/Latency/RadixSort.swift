extension [UInt64] {
    /// The elements in ascending order, as `sorted()` gives them, by a least-significant-byte radix sort:
    /// a long run's latencies (hundreds of thousands per stage) are sorted in a few linear passes rather
    /// than by comparisons. A byte every element shares is skipped (latencies seldom use the high ones).
    func radixSorted() -> [UInt64] {
        guard count > 256 else { return sorted() }
        var source = self
        var target = [UInt64](repeating: 0, count: count)
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            for digit in counts.indices { counts[digit] = 0 }
            for value in source { counts[Int(truncatingIfNeeded: value &>> shift) & 0xFF] += 1 }
            if counts.contains(count) { continue }
            var offset = 0
            for digit in counts.indices {
                let n = counts[digit]
                counts[digit] = offset
                offset += n
            }
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    for value in from {
                        let digit = Int(truncatingIfNeeded: value &>> shift) & 0xFF
                        to[counts[digit]] = value
                        counts[digit] += 1
                    }
                }
            }
            swap(&source, &target)
        }
        return source
    }
}
