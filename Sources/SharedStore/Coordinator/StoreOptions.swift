import Basics
import Foundation

/// How a process opens a store.
public struct StoreOptions: Sendable {
    /// Record persistent history (Core Data's `NSPersistentHistoryTrackingKey`). A store once opened with
    /// tracking is read-only to a process that opens it without.
    public var historyTracking: Bool
    /// How long an operation waits on another process's lock before failing with `busy`.
    public var busyTimeout: Duration
    /// Whether an operation that meets another process's lock once the store is open waits for it
    /// (`.wait`, up to `busyTimeout`) or fails with `busy` at once and says so (`.report`:
    /// `StoreCoordinator.takeLockWait()`), for a caller that waits elsewhere. Opening the store waits either way.
    public var lockWaits: LockWaits = .wait
    /// Open the file read-only (`open-copy`): every save fails with `read-only`.
    public var readOnly: Bool
    /// Write to a store Core Data wrote (one without SharedStore's mark in its metadata). Off (the
    /// default), such a store opens read-only, as a file given only to be read: a device's store is
    /// never changed by looking at it. The runner turns it on for the copies it makes in a sandbox.
    public var writesForeignStores = false
    /// The process's identifier (its pid).
    public var processIdentifier: Int32
    /// The process name written in history transactions (`ZPROCESSIDTS`), as Core Data writes the
    /// executable's name (`xctest`, the app's).
    public var processName: String = ProcessInfo.processInfo.processName
    /// The bundle identifier (the process's role) written in history transactions.
    public var bundleIdentifier: String?
    /// How write transactions (saves, batch operations, purges, `beginWrite`) begin.
    public var writeTransactions: WriteTransactions = .immediate
    /// The earlier versions of the model this process has (its bundle's other `.xcdatamodel` versions):
    /// a store made with one of them is migrated to the process's model when it opens it.
    public var previousModels: [Model] = []
    /// Core Data's `NSMigratePersistentStoresAutomaticallyOption` (with an inferred mapping): migrate a
    /// store made with a previous model when opening it. Off, such a store fails to load.
    public var migratesAutomatically = true
    /// When every statement of the store's connections stops (a `MonotonicClock` reading; nil: never):
    /// reading someone else's store (`inspect`, `import`) is bounded in time. A stopped statement fails
    /// with `.sqlite` and `SQLiteResultCode.interrupt`.
    public var statementDeadline: UInt64?

    /// Creates options; the defaults are Core Data's (no history tracking) with a 5 s busy timeout.
    public init(historyTracking: Bool = false, busyTimeout: Duration = .seconds(5), readOnly: Bool = false,
                processIdentifier: Int32 = ProcessInfo.processInfo.processIdentifier, bundleIdentifier: String? = nil)
    {
        self.historyTracking = historyTracking
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
        self.processIdentifier = processIdentifier
        self.bundleIdentifier = bundleIdentifier
    }
}

/// How an operation meets another process's lock (`StoreOptions.lockWaits`).
public enum LockWaits: Sendable, Hashable {
    /// SQLite waits, up to the busy timeout.
    case wait
    /// It fails with `busy` at once, and the coordinator says it would have waited.
    case report
}

/// What `StoreCoordinator.beforeCommit` is told: a save has run all its statements and is about to COMMIT.
public struct BeforeCommitEvent: Sendable {
    /// The saving context's name.
    public let context: String
    /// How many objects the save inserts, updates and deletes.
    public let inserted: Int, updated: Int, deleted: Int
}

/// Where a write transaction is in its COMMIT, as `StoreCoordinator.commitObserver` is told.
///
/// Every commit that makes writes visible to other processes (a save, a batch operation, a purge, a
/// sync import, `endWrite`) happens between the two: `willCommit` is told while the write lock is still
/// held, so the `willCommit` moments of two commits to one store are in commit order.
public enum CommitPhase: Sendable, Hashable {
    /// All statements ran; COMMIT is about to run (the write lock is held).
    case willCommit
    /// COMMIT returned successfully: the writes are visible to other connections.
    case didCommit
}

