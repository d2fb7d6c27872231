import Basics

extension TraceProcess {
    /// The keys of `settings`, as the runner writes them and the checkers read them: one spelling each.
    public enum SettingKey {
        public static let refresh = "refresh"
        public static let staleness = "staleness"
        public static let trigger = "trigger"
        public static let writeTransactions = "write-transactions"
        public static let framework = "framework"
    }

    /// How `settings` writes a `staleness` of -1 (cached rows never expire).
    public static let neverExpires = "-1"

    /// The process's refresh strategy (nil in a trace that does not say).
    public var refresh: RefreshStrategy? { settings[SettingKey.refresh].flatMap(RefreshStrategy.init(rawValue:)) }

    /// When its refresh strategy runs (Darwin notifications when the trace does not say).
    public var trigger: RefreshTrigger { settings[SettingKey.trigger].flatMap(RefreshTrigger.init(rawValue:)) ?? .darwin }

    /// Whether its view context's `stalenessInterval` is -1: a refresh refills faults from the row cache.
    public var cachedRowsNeverExpire: Bool { settings[SettingKey.staleness] == Self.neverExpires }

    /// How its saves take the write lock (immediately when the trace does not say).
    public var writeTransactions: WriteTransactions {
        settings[SettingKey.writeTransactions].flatMap(WriteTransactions.init(rawValue:)) ?? .immediate
    }
}
