import Basics
import CSQLite
import Foundation

/// One SQLite connection in WAL mode with a busy timeout, and its statement cache.
///
/// Not thread-safe: a connection is used by one thread (the store's owner confines it).
/// ```swift
/// let db = try SQLiteConnection(path: "/tmp/x.sqlite")
/// try db.execute("CREATE TABLE t(a)")
/// try db.cached("INSERT INTO t VALUES (?)").run([.int(1)])
/// ```
/// See <https://www.sqlite.org/c3ref/sqlite3.html>.
public final class SQLiteConnection {
    /// The database file's path.
    public let path: String
    /// Whether the connection was opened read-only.
    public let isReadOnly: Bool
    let handle: OpaquePointer
    /// Unchecked exclusivity: a connection is confined to one thread and never calls out while using it.
    @exclusivity(unchecked) private var cache: [String: Statement] = [:]
    /// Set by `close()`: the handle is gone, and nothing may use the connection any more.
    @exclusivity(unchecked) private var closed = false
    /// Raised by the busy handler `reportLockWaits()` installs: a statement met a lock it would have waited on.
    private let lockWait = LockWaitFlag()
    /// The deadline `stopStatements(at:)` set, read by SQLite's progress handler.
    private var deadline: StatementDeadline?

    /// Opens (and, unless read-only, creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the file path.
    ///   - readOnly: open with `SQLITE_OPEN_READONLY`.
    ///   - busyTimeout: how long a statement waits on another connection's lock before failing with `.busy`.
    ///   - walMode: switch the file to WAL journaling (skipped for read-only connections).
    /// - Throws: `SQLiteError` when the file cannot be opened or configured.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(5), walMode: Bool = true)
        throws(SQLiteError)
    {
        self.path = path
        self.isReadOnly = readOnly
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(extendedCode: rc, message: "\(message) (\(path))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        setBusyTimeout(busyTimeout)
        if walMode && !readOnly {
            // Core Data's stores vacuum incrementally (their metadata's `_NSAutoVacuumLevel` 2). It takes
            // effect only on a file without tables, and only before it turns to WAL; elsewhere it changes
            // nothing, yet still asks for the write lock: an existing store is left alone, so a process can
            // open it while another holds that lock (a read never waits in WAL mode).
            if try scalarInt("PRAGMA page_count") == 0 { try execute("PRAGMA auto_vacuum = INCREMENTAL") }
            try execute("PRAGMA journal_mode=WAL")
            try execute("PRAGMA synchronous=NORMAL")
        }
    }

    deinit {
        close()
    }

    /// Finalizes the cached statements and closes the connection now, rather than when it is released:
    /// the last connection to a WAL database checkpoints it and removes its `-wal` as it closes, and a
    /// process that closes before it says it is done leaves the files as they will stay. Nothing may use
    /// the connection afterwards.
    public func close() {
        guard !closed else { return }
        closed = true
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Stops any statement still running at `deadline` (a `MonotonicClock` reading; nil: none): it fails
    /// with `.interrupt`. Someone else's store can hold a query that takes hours (a huge table, a
    /// recursive view), and what reads such a store must end. Checked every hundred virtual-machine
    /// steps, through SQLite's progress handler (<https://www.sqlite.org/c3ref/progress_handler.html>).
    public func stopStatements(at deadline: UInt64?) {
        guard let deadline else {
            sqlite3_progress_handler(handle, 0, nil, nil)
            self.deadline = nil
            return
        }
        let box = StatementDeadline(deadline)
        self.deadline = box
        sqlite3_progress_handler(handle, 100, { context in
            guard let context else { return 0 }
            let box = Unmanaged<StatementDeadline>.fromOpaque(context).takeUnretainedValue()
            return MonotonicClock.now() >= box.deadline ? 1 : 0
        }, Unmanaged.passUnretained(box).toOpaque())
    }

    /// Sets how long statements wait on a lock before failing with `.busy`.
    public func setBusyTimeout(_ timeout: Duration) {
        let ms = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: ms))
    }

    /// From now on a statement that meets another connection's lock fails with `.busy` at once instead of
    /// waiting for it, and `takeLockWait()` says it would have waited. A busy SQLite returns without
    /// waiting (a deferred transaction whose snapshot is stale) leaves the flag down. For a caller that
    /// waits elsewhere: the deterministic mode waits in virtual time, where the holder can act meanwhile.
    ///
    /// See <https://www.sqlite.org/c3ref/busy_handler.html>.
    public func reportLockWaits() {
        sqlite3_busy_handler(handle, { context, _ in
            guard let context else { return 0 }
            Unmanaged<LockWaitFlag>.fromOpaque(context).takeUnretainedValue().raised = true
            return 0
        }, Unmanaged.passUnretained(lockWait).toOpaque())
    }

    /// Whether a statement met a lock it would have waited on since the last call (see `reportLockWaits()`).
    public func takeLockWait() -> Bool {
        defer { lockWait.raised = false }
        return lockWait.raised
    }

    /// Runs one or more statements that take no arguments (`sqlite3_exec`).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle) == 0 ? rc : sqlite3_extended_errcode(handle),
                              message: text, sql: sql)
        }
    }

    /// Prepares a new statement (not cached).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Returns the cached statement for `sql`, preparing it the first time; it is reset and unbound.
    public func cached(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// The rowid of the last successful INSERT.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The number of rows changed since the connection was opened (inserts, updates, deletes; not the
    /// schema's statements).
    public var totalChanges: Int { Int(sqlite3_total_changes(handle)) }

    /// Whether the connection is inside an explicit transaction (`BEGIN` ran and no COMMIT/ROLLBACK yet).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`, rolling back when it throws.
    public func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The first column of the first row of `sql` as an integer (`nil` when there is no row or it is NULL).
    public func scalarInt(_ sql: String, _ arguments: [Value] = []) throws(SQLiteError) -> Int64? {
        let statement = try cached(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// The column names of table `name` (empty when there is no such table).
    public func columns(of table: String) throws(SQLiteError) -> Set<String> {
        Set(try columnTypes(of: table).keys)
    }

    /// The columns of table `name` with their declared types, upper-cased (empty when there is no such table).
    public func columnTypes(of table: String) throws(SQLiteError) -> [String: String] {
        let statement = try prepare("SELECT name, type FROM pragma_table_info(?)")
        try statement.bind([.string(table)])
        var columns: [String: String] = [:]
        while try statement.step() {
            if let name = statement.string(at: 0) { columns[name] = (statement.string(at: 1) ?? "").uppercased() }
        }
        return columns
    }

    /// Whether a table named `name` exists.
    public func tableExists(_ name: String) throws(SQLiteError) -> Bool {
        try scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?", [.string(name)]) ?? 0 > 0
    }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let code = (extended & 0xFF) == (rc & 0xFF) ? extended : rc
        return SQLiteError(extendedCode: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Replaces this database's contents with `source`'s (SQLite's online backup, in one step).
    func restore(from source: SQLiteConnection) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
        }
        let step = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE, finish == SQLITE_OK else {
            throw SQLiteError(extendedCode: step == SQLITE_DONE ? finish : step, message: "restoring from a copy failed")
        }
    }
}

/// The busy handler's flag (a class, so that its address can travel through SQLite's context pointer).
private final class LockWaitFlag {
    var raised = false
}

/// A deadline the progress handler reads (kept alive by its connection).
private final class StatementDeadline {
    let deadline: UInt64
    init(_ deadline: UInt64) { self.deadline = deadline }
}
