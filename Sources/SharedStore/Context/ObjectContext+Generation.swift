import Basics

/// Where the view context is with its pinned query generation: a read transaction held open on its connection.
enum GenerationPin: Equatable {
    case unpinned
    /// Pinned, to be established at the next fetch or fault (Core Data pins lazily).
    case pending
    /// Pinned: a read transaction is open on the view context's connection.
    case pinned

    var isPinned: Bool { self != .unpinned }
}

extension ObjectContext {
    /// Pins the view context to the current query generation (Core Data's
    /// `setQueryGenerationFrom(.current)`): from its next fetch or fault, it reads the store as of that
    /// moment, whatever other processes commit, until it saves, merges, resets, pins again or unpins.
    /// Pinning again moves to the newest generation.
    /// - Throws: `StoreError.invalidState` on a background context.
    public func pinQueryGeneration() throws(StoreError) {
        guard isViewContext else { throw .invalidState("only the view context can pin a query generation") }
        releaseGeneration()
        generation = .pending
    }

    /// Returns the view context to unpinned reads (it sees every commit from now on).
    public func unpinQueryGeneration() {
        guard generation.isPinned else { return }
        releaseGeneration()
        generation = .unpinned
        core.emit(.generationUnpinned)
    }

    /// Whether the view context is pinned to a query generation (established or about to be).
    public var isQueryGenerationPinned: Bool { generation.isPinned }

    /// Whether the pinned generation's read transaction is open now (a transaction held on the store file).
    var holdsGenerationTransaction: Bool { generation == .pinned && core.reader.isInTransaction }

    func ensurePinned() throws(StoreError) {
        guard isViewContext, generation == .pending else { return }
        do {
            try core.reader.execute("BEGIN DEFERRED")
            // A read starts the snapshot: the generation is the store as of now.
            _ = try core.reader.scalarInt("SELECT count(*) FROM Z_METADATA")
            generation = .pinned
            let token = core.historyTracking
                ? try core.reader.scalarInt("SELECT max(Z_PK) FROM ATRANSACTION") : nil
            core.emit(.generationPinned(token: token))
        } catch {
            if core.reader.isInTransaction { try? core.reader.execute("ROLLBACK") }
            throw .sqlite(error)
        }
    }

    /// Save, merge and reset move a pinned context to the newest generation (established lazily).
    func advanceGeneration() {
        guard generation == .pinned else { return }
        releaseGeneration()
        generation = .pending
    }

    private func releaseGeneration() {
        if generation == .pinned, core.reader.isInTransaction {
            try? core.reader.execute("COMMIT")
        }
    }
}
