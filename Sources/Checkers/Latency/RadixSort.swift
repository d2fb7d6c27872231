extension [UInt64] {
    /// The elements in ascending order, as `sorted()` gives them, by a least-significant-byte radix sort:
    /// a long run's latencies (hundreds of thousands per stage) are sorted in a few linear passes rather
    /// than by comparisons. A byte every element shares is skipped (latencies seldom use the high ones).
    func radixSorted() -> [UInt64] {
        var result = self
        var scratch: [UInt64] = []
        result.radixSort(scratch: &scratch)
        return result
    }

    /// Sorts in place as `radixSorted()` does, passing the elements between them and `scratch`, which is
    /// grown to their count when shorter and kept for the next sort: a long run's latencies (several lists
    /// of hundreds of thousands) each took a fresh buffer and a copy of the list, memory the system had to
    /// hand over afresh.
    mutating func radixSort(scratch: inout [UInt64]) {
        guard count > 256 else {
            sort()
            return
        }
        if scratch.count < count { scratch = [UInt64](repeating: 0, count: count) }
        let total = count
        withUnsafeMutableBufferPointer { elements in
            scratch.withUnsafeMutableBufferPointer { spare in
                Self.radixSort(elements, spare: UnsafeMutableBufferPointer(rebasing: spare[0..<total]))
            }
        }
    }

    /// Sorts `elements`, passing them between it and `spare` (as long), ending in `elements`.
    private static func radixSort(_ elements: UnsafeMutableBufferPointer<UInt64>, spare: UnsafeMutableBufferPointer<UInt64>) {
        let total = elements.count
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256)
        defer { counts.deallocate() }
        var source = elements
        var target = spare
        for shift in stride(from: UInt64(0), to: 64, by: 8) {
            counts.initialize(repeating: 0)
            for value in source { counts[Int(truncatingIfNeeded: value &>> shift) & 0xFF] += 1 }
            if counts.contains(total) { continue }
            var offset = 0
            for digit in 0..<256 {
                let n = counts[digit]
                counts[digit] = offset
                offset += n
            }
            for value in source {
                let digit = Int(truncatingIfNeeded: value &>> shift) & 0xFF
                target[counts[digit]] = value
                counts[digit] += 1
            }
            swap(&source, &target)
        }
        // Ended in the spare buffer: copied back.
        if source.baseAddress != elements.baseAddress {
            _ = elements.update(fromContentsOf: source)
        }
    }
}
