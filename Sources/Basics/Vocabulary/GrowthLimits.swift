/// Budgets on how far a store may grow in one run (`limits: { history-transactions: 1000, wal: 4MB }`):
/// history that is never purged (bug 21) and a write-ahead log that a long read keeps from being
/// checkpointed (bug 22). Each limit that is set applies to every store of the run.
public struct GrowthLimits: Sendable, Hashable, Codable {
    /// The most history transactions a store may hold at the end of the run.
    public var historyTransactions: Int64?
    /// The most history changes (one per object per transaction) a store may hold at the end.
    public var historyChanges: Int64?
    /// The largest the `-wal` file may grow to at any point of the run, in bytes.
    public var walBytes: Int64?
    /// The largest the store file itself may be at the end of the run, in bytes.
    public var storeBytes: Int64?

    /// Creates limits; nil leaves a measure unlimited.
    public init(historyTransactions: Int64? = nil, historyChanges: Int64? = nil, walBytes: Int64? = nil, storeBytes: Int64? = nil) {
        self.historyTransactions = historyTransactions
        self.historyChanges = historyChanges
        self.walBytes = walBytes
        self.storeBytes = storeBytes
    }

    /// The keys `limits:` may set, as a scenario writes them.
    public static let keys = ["history-transactions", "history-changes", "wal", "store"]

    /// These limits with every limit `other` sets replacing this one's (a variant's `limits:`).
    public func overridden(by other: GrowthLimits) -> GrowthLimits {
        GrowthLimits(historyTransactions: other.historyTransactions ?? historyTransactions,
                     historyChanges: other.historyChanges ?? historyChanges,
                     walBytes: other.walBytes ?? walBytes, storeBytes: other.storeBytes ?? storeBytes)
    }

    /// `{ history-transactions: 1000, wal: 4MB }`, as a scenario writes it.
    public var text: String {
        let parts = [
            historyTransactions.map { "history-transactions: \($0)" }, historyChanges.map { "history-changes: \($0)" },
            walBytes.map { "wal: \(ByteSize.exact($0))" }, storeBytes.map { "store: \(ByteSize.exact($0))" },
        ].compactMap { $0 }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

/// Sizes as a scenario writes them: `4MB`, `512KB`, `1GB`, `100B` or a plain number of bytes. A
/// kilobyte is 1024 bytes (`KiB`, `MiB` and `GiB` are accepted too), as SQLite counts its pages.
public enum ByteSize {
    /// The largest size a scenario may give: 1 TiB.
    public static let limit: Int64 = 1 << 40

    private static let units: [(String, Int64)] = [
        ("GIB", 1 << 30), ("MIB", 1 << 20), ("KIB", 1 << 10), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1),
    ]

    /// The number of bytes `text` names, or nil when it is not a size or is over `limit`. Never traps.
    public static func parse(_ text: String) -> Int64? {
        let upper = text.uppercased().filter { $0 != " " && $0 != "_" }
        let (digits, factor) = units.first { upper.hasSuffix($0.0) }.map { (String(upper.dropLast($0.0.count)), $0.1) } ?? (upper, 1)
        // Digits with at most one decimal point: no exponent, sign, "inf" or "nan".
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              digits.filter({ $0 == "." }).count <= 1, let value = Double(digits), value.isFinite, value >= 0,
              value * Double(factor) <= Double(limit) else { return nil }
        // A size is a whole number of bytes: 1.5B or 0.001KB is no size.
        let bytes = value * Double(factor)
        guard bytes == bytes.rounded() else { return nil }
        return Int64(bytes)
    }

    /// `4MB`, `1536KB` or `1000`: exactly `bytes`, in the largest unit that divides it, as a scenario
    /// writes it.
    public static func exact(_ bytes: Int64) -> String {
        for (unit, factor) in [("GB", Int64(1 << 30)), ("MB", Int64(1 << 20)), ("KB", Int64(1 << 10))] where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(unit)"
        }
        return String(bytes)
    }

    /// `4 MiB`, `512 KiB`, `100 B`: a size in the largest unit that keeps one decimal honest.
    public static func text(_ bytes: Int64) -> String {
        for (unit, factor) in [("GiB", Int64(1 << 30)), ("MiB", Int64(1 << 20)), ("KiB", Int64(1 << 10))] where bytes >= factor {
            let value = Double(bytes) / Double(factor)
            let tenths = (value * 10).rounded() / 10
            return (tenths == tenths.rounded() ? String(Int64(tenths)) : String(tenths)) + " " + unit
        }
        return "\(bytes) B"
    }
}
