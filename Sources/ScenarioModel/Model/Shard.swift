import Basics

/// One machine's share of a CI matrix: `--shard 2/4` is the second of four.
///
/// Numbered from 1, as GitHub Actions matrices, Jest and Playwright count shards. Runs are split by a
/// stable hash of their name, not by position, so adding a scenario moves no other run to another shard;
/// seeds (for `explore`) are split by residue.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1 through `count`.
    public let number: Int
    /// How many shards share the work (1 or more).
    public let count: Int

    /// The whole of the work, on one machine.
    public static let whole = Shard(validNumber: 1, count: 1)

    private init(validNumber: Int, count: Int) {
        self.number = validNumber
        self.count = count
    }

    /// `n/m` with `1 <= n <= m`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(number) else {
            return nil
        }
        self.init(validNumber: number, count: count)
    }

    /// The shard's place counted from 0.
    public var index: Int { number - 1 }

    /// Whether the run (or other piece of work) called `name` falls to this shard.
    public func contains(_ name: String) -> Bool {
        StableHash.splitMix64(StableHash.fnv1a64(name)) % UInt64(count) == UInt64(index)
    }

    public var description: String { "\(number)/\(count)" }

    /// What a command says about a bad `--shard`.
    public static let usage = "--shard takes n/m with 1 <= n <= m, like 1/4 (the first of four)."
}
