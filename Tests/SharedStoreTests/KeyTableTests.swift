@testable import SharedStore
import Testing

/// `KeyTable` backs the row cache and registered objects: checked against `Dictionary` under random
/// inserts, replacements and removals (removal shifts probe runs back, the subtle part).
@Suite struct KeyTableTests {
    @Test func behavesLikeADictionary() {
        var generator = SplitMix(seed: 42)
        var table = KeyTable<Int>()
        var reference: [Int64: Int] = [:]
        for step in 0..<60_000 {
            // Keys from a small range (many collisions and removals of present keys), both signs.
            let key = Int64(generator.next() % 3_000) - 1_000
            switch generator.next() % 4 {
            case 0:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            default:
                #expect(table.updateValue(step, forKey: key) == reference.updateValue(step, forKey: key))
            }
            if step % 997 == 0 {
                #expect(table.count == reference.count)
                for k in -1_000..<2_000 { #expect(table[Int64(k)] == reference[Int64(k)]) }
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.element) }) == reference)
        #expect(table.values.sorted() == reference.values.sorted())
    }

    /// Runs of consecutive keys share runs of buckets (the hash keeps groups of keys together): dense runs
    /// far apart, of both signs, overlapping in their low bits, with removals, still behave.
    @Test func denseRunsFarApartBehaveLikeADictionary() {
        var generator = SplitMix(seed: 7)
        var table = KeyTable<Int64>()
        var reference: [Int64: Int64] = [:]
        let starts: [Int64] = [1, 1 << 12, 1 << 20, (1 << 40) + 3, -5_000, -(1 << 33)]
        for round in 0..<4 {
            for start in starts {
                for k in start..<(start + 700) {
                    let value = k &* Int64(round + 1)
                    #expect(table.updateValue(value, forKey: k) == reference.updateValue(value, forKey: k))
                }
            }
            for _ in 0..<1_500 {
                let start = starts[Int(generator.next() % UInt64(starts.count))]
                let key = start + Int64(generator.next() % 700)
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            }
            #expect(table.count == reference.count)
            for start in starts {
                for k in (start - 10)..<(start + 710) { #expect(table[k] == reference[k]) }
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.element) }) == reference)
    }

    @Test func sequentialKeysGrowAndEmpty() {
        var table = KeyTable<String>()
        #expect(table[5] == nil)
        for k in Int64(1)...100_000 { table[k] = "\(k)" }
        table.reserveCapacity(200_000)
        #expect(table.count == 100_000)
        #expect(table[77_777] == "77777")
        for k in Int64(1)...100_000 where k % 2 == 0 { table[k] = nil }
        #expect(table.count == 50_000)
        #expect(table[77_777] == "77777" && table[77_778] == nil)
        table.removeAll()
        #expect(table.isEmpty && table[77_777] == nil)
    }
}

/// A small deterministic generator (tests must not depend on the system's random seed).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
