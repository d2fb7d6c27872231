import Basics

/// A query generation one or more contexts are pinned to: a read transaction held open on a connection
/// of its own, which they read through (Debian's SQLite has no `sqlite3_snapshot_*`, so a generation lives
/// as long as a transaction holds it). Core Data's `NSQueryGenerationToken` names one: a context that pins
/// with another's token shares it.
final class QueryGeneration {
    let connection: SQLiteConnection
    /// The store's newest history token when it was established (nil without history).
    let token: Int64?
    /// How many contexts are pinned to it.
    var users = 1

    init(connection: SQLiteConnection, token: Int64?) {
        self.connection = connection
        self.token = token
    }
}

/// Where a context is with its query generation.
enum GenerationPin: Equatable {
    case unpinned
    /// Pinned to the current generation, to be established at the next fetch or fault (Core Data pins lazily).
    case pending
    /// Pinned: it reads through the generation's held transaction.
    case pinned(QueryGeneration)

    var isPinned: Bool { self != .unpinned }

    static func == (lhs: GenerationPin, rhs: GenerationPin) -> Bool {
        switch (lhs, rhs) {
        case (.unpinned, .unpinned), (.pending, .pending): true
        case (.pinned(let a), .pinned(let b)): a === b
        default: false
        }
    }
}

extension ObjectContext {
    /// Pins the context to the current query generation (Core Data's `setQueryGenerationFrom(.current)`):
    /// from its next fetch or fault, it reads the store as of that moment, whatever other processes commit,
    /// until it saves, merges, resets, pins again or unpins. Pinning again moves to the newest generation.
    /// - Throws: `StoreError.invalidState` on a child context (it reads through its parent).
    public func pinQueryGeneration() throws(StoreError) {
        guard parent == nil else { throw .invalidState("a child context reads through its parent; pin the parent's query generation") }
        releaseGeneration()
        generation = .pending
    }

    /// Pins the context to the query generation `other` is pinned to (Core Data's
    /// `setQueryGenerationFrom(other.queryGenerationToken)`): both read the same snapshot of the store until
    /// either moves on. `other`'s generation is established now if it was not yet. An unpinned `other` has no
    /// token (`queryGenerationToken` is nil), and setting a nil token unpins: so does this.
    /// - Throws: `StoreError.invalidState` when `other` belongs to another store, or either is a child context.
    public func pinQueryGeneration(from other: ObjectContext) throws(StoreError) {
        guard parent == nil, other.parent == nil else {
            throw .invalidState("a child context has no query generation of its own; pin its parent")
        }
        guard other.core === core else { throw .invalidState("\(other.name)'s query generation token is of another store") }
        guard other.generation.isPinned else { return unpinQueryGeneration() }
        guard other !== self else { return }
        try other.ensurePinned()
        guard case .pinned(let shared) = other.generation else { return }
        releaseGeneration()
        shared.users += 1
        generation = .pinned(shared)
    }

    /// Returns the context to unpinned reads (it sees every commit from now on).
    public func unpinQueryGeneration() {
        guard generation.isPinned else { return }
        releaseGeneration()
        generation = .unpinned
        core.emit(.generationUnpinned(context: name))
    }

    /// Whether the context is pinned to a query generation (established or about to be).
    public var isQueryGenerationPinned: Bool { generation.isPinned }

    /// Whether the context reads through the same established generation as `other`.
    public func sharesQueryGeneration(with other: ObjectContext) -> Bool {
        if case .pinned(let a) = generation, case .pinned(let b) = other.generation { return a === b }
        return false
    }

    func ensurePinned() throws(StoreError) {
        guard parent == nil, generation == .pending else { return }
        let established = try core.openGeneration()
        generation = .pinned(established)
        core.emit(.generationPinned(token: established.token, context: name))
    }

    /// Save, merge and reset move a pinned context to the newest generation (established lazily).
    func advanceGeneration() {
        guard case .pinned = generation else { return }
        releaseGeneration()
        generation = .pending
    }

    private func releaseGeneration() {
        if case .pinned(let held) = generation { core.release(held) }
    }
}

extension StoreCore {
    /// Starts a generation now: a read transaction on an idle generation connection (one is opened when
    /// none is idle), begun with a read so that its snapshot is the store as of now.
    func openGeneration() throws(StoreError) -> QueryGeneration {
        let db: SQLiteConnection
        if let idle = idleGenerationConnections.popLast() {
            db = idle
        } else {
            do {
                db = try SQLiteConnection(path: url.path, readOnly: writer.isReadOnly, busyTimeout: options.busyTimeout, walMode: false)
            } catch {
                throw .sqlite(error)
            }
            db.stopStatements(at: options.statementDeadline)
            if options.lockWaits == .report { db.reportLockWaits() }
            generationConnections.append(db)
        }
        do {
            try db.execute("BEGIN DEFERRED")
            _ = try db.scalarInt("SELECT count(*) FROM Z_METADATA")
            let token = historyTracking ? try db.scalarInt("SELECT max(Z_PK) FROM ATRANSACTION") : nil
            let generation = QueryGeneration(connection: db, token: token)
            liveGenerations.append(generation)
            return generation
        } catch {
            if db.isInTransaction { try? db.execute("ROLLBACK") }
            idleGenerationConnections.append(db)
            throw .sqlite(error)
        }
    }

    /// One context leaves `generation`; the last one ends its transaction.
    func release(_ generation: QueryGeneration) {
        generation.users -= 1
        guard generation.users <= 0 else { return }
        if generation.connection.isInTransaction { try? generation.connection.execute("COMMIT") }
        liveGenerations.removeAll { $0 === generation }
        idleGenerationConnections.append(generation.connection)
    }

    /// Whether some pinned generation's read transaction is open (a transaction held on the store file).
    var holdsGenerationTransaction: Bool { liveGenerations.contains { $0.connection.isInTransaction } }
}
