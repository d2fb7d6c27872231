import Basics

/// Deterministic mode: what work whose size only the agent learns costs in virtual time, each unit
/// (`CostModel` in the runner holds the figures, measured in real time). Real time spends what it spends.
public struct UnitCosts: Codable, Sendable, Hashable {
    /// Each row a lightweight migration at launch rewrites, beyond the launch's own cost.
    public var migratedRow: UInt64
    /// Each object a `sync` or `leech` exports or imports (a first sync's baseline included), beyond the
    /// step's own cost.
    public var syncedObject: UInt64

    public init(migratedRow: UInt64, syncedObject: UInt64) {
        self.migratedRow = migratedRow
        self.syncedObject = syncedObject
    }

    /// The virtual time `count` units at `each` take, clamped rather than overflowing.
    public static func total(_ count: Int, each: UInt64) -> UInt64 {
        UInt64(clamping: count).multipliedClamped(by: each)
    }
}
