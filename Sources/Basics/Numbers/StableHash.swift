import Foundation

/// Deterministic hashing and mixing, identical in every process and on every run.
///
/// Swift's `hashValue` is seeded randomly per process, so nothing that must agree between the runner
/// and its children (seeds, derived identifiers) may use it; these functions are used instead.
public enum StableHash {
    /// 64-bit FNV-1a of the string's UTF-8 bytes.
    ///
    /// `fnv1a64("")` is `0xcbf29ce484222325`.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The SeededRandom finalizer of `state + golden gamma`: one step of Steele, Lea and Flood's
    /// generator, which turns nearby inputs into unrelated outputs.
    public static func splitMix64(_ state: UInt64) -> UInt64 {
        var z = state &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A version-4-shaped UUID whose bits are `high` then `low` (the version and variant bits overwritten).
    public static func uuid(high: UInt64, low: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * (7 - index)))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (8 * (7 - index)))
        }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
