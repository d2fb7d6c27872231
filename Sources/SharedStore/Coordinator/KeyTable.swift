/// A hash table from primary keys (`Z_PK`, or a temporary ID's negative key) to elements.
///
/// The row cache and a context's registered objects are keyed by primary key, and every object saved,
/// fetched or fired goes through several of these lookups. `Dictionary` hashes each `Int64` key with
/// seeded SipHash, which cost more than the rest of registering an object. Keys here are integers the
/// store allocates sequentially, so the hash keeps runs of consecutive keys together: each aligned group
/// of `groupSize` keys lands in `groupSize` consecutive buckets, and a multiplicative (Fibonacci) hash of
/// the group number spreads the groups. Saving or fetching rows in key order then touches each cache
/// line of the table once per group instead of once per key (a table of 100k objects is megabytes: a
/// cache miss per key was a large part of a save's time), while keys far apart still spread like a
/// plain multiplicative hash.
/// Open addressing with linear probing, at most half full, deletion by backward shift (no tombstones).
/// Iteration order is the bucket order: deterministic, but not insertion order.
struct KeyTable<Element> {
    /// Marks a free bucket: `Z_PK` is positive and temporary keys are small negatives, never `Int64.min`.
    private static var free: Int64 { .min }

    private var keys: [Int64] = []
    private var elements: [Element?] = []
    /// log2 of the bucket count (0 when nothing was ever stored).
    private var bits = 0
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// log2 of how many consecutive keys share a run of buckets (8 keys: one 64-byte line of `keys`).
    private static var groupBits: Int { 3 }

    private func bucket(_ key: Int64) -> Int {
        Self.bucket(key, bits: bits)
    }

    /// The home bucket of `key` in a table of `1 << bits` buckets (`bits` > `groupBits`).
    private static func bucket(_ key: Int64, bits: Int) -> Int {
        let group = UInt64(bitPattern: key >> Int64(groupBits)) &* 0x9E37_79B9_7F4A_7C15
        let offset = UInt64(bitPattern: key) & ((1 << UInt64(groupBits)) - 1)
        return Int(truncatingIfNeeded: (group >> UInt64(64 - bits + groupBits)) << UInt64(groupBits) | offset)
    }

    /// The bucket holding `key`, or the free bucket where it would go.
    private func find(_ key: Int64) -> (index: Int, found: Bool) {
        let mask = keys.count - 1
        let start = bucket(key)
        return keys.withUnsafeBufferPointer { keys in
            var i = start
            while true {
                let k = keys[i]
                if k == key { return (i, true) }
                if k == Self.free { return (i, false) }
                i = (i + 1) & mask
            }
        }
    }

    subscript(key: Int64) -> Element? {
        get {
            guard count > 0 else { return nil }
            let (i, found) = find(key)
            return found ? elements[i] : nil
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Stores `element` for `key`; returns the element it replaced.
    @discardableResult
    mutating func updateValue(_ element: consuming Element, forKey key: Int64) -> Element? {
        precondition(key != Self.free, "Int64.min is not a valid key")
        if (count + 1) * 2 > keys.count { grow(to: Swift.max(16, keys.count * 2)) }
        let (i, found) = find(key)
        if found {
            let old = elements[i]
            elements[i] = element
            return old
        }
        keys.withUnsafeMutableBufferPointer { $0[i] = key }
        elements[i] = element  // consumed: stored without a retain
        count += 1
        return nil
    }

    @discardableResult
    mutating func removeValue(forKey key: Int64) -> Element? {
        guard count > 0 else { return nil }
        var (i, found) = find(key)
        guard found else { return nil }
        let old = elements[i]
        // Backward-shift deletion: pull later members of the probe run into the hole.
        let mask = keys.count - 1
        var j = i
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k == Self.free { break }
            let home = bucket(k)
            // Move k into the hole at i unless its home lies cyclically in (i, j].
            if (j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j)) {
                keys[i] = k
                elements[i] = elements[j]
                i = j
            }
        }
        keys[i] = Self.free
        elements[i] = nil
        count -= 1
        return old
    }

    mutating func removeAll() {
        self = KeyTable()
    }

    /// Makes room for `capacity` elements without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        var size = Swift.max(16, keys.count)
        while capacity * 2 > size { size *= 2 }
        if size > keys.count { grow(to: size) }
    }

    /// Rehashes into `size` buckets, moving the elements (no retain or release per element).
    private mutating func grow(to size: Int) {
        var oldKeys = [Int64](repeating: Self.free, count: size)
        var oldElements = [Element?](repeating: nil, count: size)
        swap(&oldKeys, &keys)
        swap(&oldElements, &elements)
        bits = size.trailingZeroBitCount
        let bits = bits
        let mask = size - 1
        keys.withUnsafeMutableBufferPointer { keys in
            elements.withUnsafeMutableBufferPointer { elements in
                oldElements.withUnsafeMutableBufferPointer { old in
                    for (k, key) in oldKeys.enumerated() where key != Self.free {
                        var i = Self.bucket(key, bits: bits)
                        while keys[i] != Self.free { i = (i + 1) & mask }
                        keys[i] = key
                        // Both slots hold nil (no payload): swapping moves the element without copying it.
                        swap(&elements[i], &old[k])
                    }
                }
            }
        }
    }

    /// Every (key, element) pair, in bucket order.
    var entries: some Sequence<(key: Int64, element: Element)> {
        zip(keys, elements).lazy.compactMap { key, element in element.map { (key, $0) } }
    }

    /// Every element, in bucket order.
    var values: some Sequence<Element> {
        elements.lazy.compactMap { $0 }
    }
}
