import Basics
extension StoreCoordinator {
    /// Takes the store's write lock and keeps it across calls (`BEGIN IMMEDIATE` held open) until
    /// `endWrite()`. Saves and batch operations in between run inside it (as savepoints) and become visible
    /// to other processes at `endWrite()`. With `writeTransactions: .deferred` it begins a transaction
    /// that reads now and takes the lock at its first write (see `WriteTransactions`).
    /// - Throws: `StoreError.sqlite` with code `.busy` when another process holds the lock past the busy
    ///   timeout; `.invalidState` when a write is already held.
    public func beginWrite() throws(StoreError) {
        guard !core.heldWrite else { throw .invalidState("a write transaction is already held") }
        // A store this process may not write (opened read-only, or tracked and opened without tracking):
        // no write transaction, as SQLite refuses BEGIN IMMEDIATE on a read-only connection.
        if let reason = core.readOnlyReason { throw .readOnly(reason: reason) }
        do { try core.beginOutermost(core.writer) } catch { throw .sqlite(error) }
        core.heldWrite = true
    }

    /// Commits and releases the write lock taken by `beginWrite()`.
    public func endWrite() throws(StoreError) {
        guard core.heldWrite else { throw .invalidState("no write transaction is held (call beginWrite first)") }
        core.heldWrite = false
        do { try core.commitOutermost(core.writer) } catch {
            if core.writer.isInTransaction { try? core.writer.execute("ROLLBACK") }
            throw .sqlite(error)
        }
    }

    /// Whether an operation met another process's lock it would have waited on, since the last call. Only
    /// with `StoreOptions.lockWaits` `.report`, where it then failed with `busy` at once.
    public func takeLockWait() -> Bool {
        core.takeLockWait()
    }

    /// Whether this process holds a transaction open on the store file: a held write (`beginWrite`), a
    /// save in progress, or a pinned query generation's read transaction. Idle connections
    /// (with their standing WAL locks) do not count. iOS kills a suspended app that holds one (0xdead10cc).
    public var holdsTransaction: Bool { !openTransactions.isEmpty }

    /// The transactions this process holds open on the store file: a write (held or in progress)
    /// and/or a pinned generation's read.
    public var openTransactions: [LockKind] {
        var result: [LockKind] = []
        if core.heldWrite || core.writer.isInTransaction { result.append(.write) }
        if core.holdsGenerationTransaction { result.append(.pinnedRead) }
        return result
    }

    /// Runs `body` in a write transaction on the writer connection (a savepoint inside a held write).
    func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        let db = core.writer
        let nested = core.heldWrite
        if nested { try db.execute("SAVEPOINT work") } else { try core.beginOutermost(db) }
        do {
            let result = try body()
            if nested { try db.execute("RELEASE work") } else { try core.commitOutermost(db) }
            return result
        } catch {
            if nested {
                try? db.execute("ROLLBACK TO work")
                try? db.execute("RELEASE work")
            } else if db.isInTransaction {
                try? db.execute("ROLLBACK")
            }
            throw error
        }
    }
}
