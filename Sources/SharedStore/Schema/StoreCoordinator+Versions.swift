import Foundation

extension StoreCoordinator {
    /// The version hash (`Model.versionHash`) of the model the store at `url` was made with or last
    /// migrated to, read without writing; `nil` when the file has no store metadata yet.
    public static func modelHash(ofStoreAt url: URL) throws(StoreError) -> String? {
        do {
            let db = try SQLiteConnection(path: url.path, readOnly: true, walMode: false)
            guard try db.tableExists("Z_METADATA") else { return nil }
            return try StoreSchema.modelHash(db)
        } catch {
            throw .sqlite(error)
        }
    }

    /// Whether `model` is the model of the store at `url` (read without writing): its hashes, or for a
    /// store Core Data wrote, its schema (see `StoreSchema.fits`).
    public static func model(_ model: Model, fitsStoreAt url: URL) -> Bool {
        guard let db = try? SQLiteConnection(path: url.path, readOnly: true, walMode: false),
              (try? db.tableExists("Z_METADATA")) == true else { return false }
        return (try? StoreSchema.fits(db, model: model, metadata: try StoreSchema.storeMetadata(db))) == true
    }

    /// The version hash of the model the open store has now: another process may have migrated it
    /// since this one opened it (this process's statements then name columns that may be gone).
    /// Closes the store's connections now (see `SQLiteConnection.close()`), when the process is done with
    /// it: nothing may use this coordinator or its contexts afterwards.
    public func close() {
        core.reader.close()
        for db in core.generationConnections { db.close() }
        core.writer.close()
    }

    /// Read on a connection of its own: this process's may be inside a transaction whose snapshot
    /// predates the migration.
    public func currentModelHash() throws(StoreError) -> String? {
        try Self.modelHash(ofStoreAt: core.url)
    }
}
