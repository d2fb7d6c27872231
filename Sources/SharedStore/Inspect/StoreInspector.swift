import Basics
import Foundation

/// Reads a store file that Core Data (or SharedStore) wrote, without writing to it: `groupsim inspect`.
///
/// SQLite writes even to read a database in WAL mode (it builds the `-shm` index and may checkpoint when
/// the last connection closes), so the inspector reads a copy of the files in a temporary directory it
/// removes afterwards; the files it was given are never opened for writing.
public enum StoreInspector {
    /// How long reading one store may take (its copy aside) before its statements are stopped: someone
    /// else's store can hold a query that never ends.
    public static let defaultBudget: Duration = .seconds(60)

    /// The `MonotonicClock` reading `budget` from now (saturating: a huge budget never wraps).
    static func deadline(after budget: Duration) -> UInt64 {
        let end = MonotonicClock.now().addingReportingOverflow(MonotonicClock.nanoseconds(budget))
        return end.overflow ? .max : end.partialValue
    }

    /// The error for a statement stopped at the deadline, naming the file and the budget.
    static func stopped(_ path: String, _ budget: Duration, _ failure: StoreError) -> StoreError {
        .file(path: path, reason: "reading it took longer than \(budget) and was stopped (at \(VisibleText.escaped(failure.sqliteError?.sql ?? "a statement")))"
            + "; a store whose queries take this long is not one GroupSim reads")
    }

    /// Inspects the store at `url` (its `-wal`, `-shm` and `-journal` beside it, if any), copying them
    /// into `scratch` (a new temporary directory when nil), which is removed before it returns. A symbolic
    /// link is followed: the files beside its target are the store's.
    ///
    /// The files are copied one after another, so a process writing meanwhile can leave a copy whose
    /// `-wal` and `.sqlite` disagree; SQLite then finds it malformed, and the inspector copies again (up
    /// to five times). The `-shm` is not copied (only measured): SQLite rebuilds it from the `-wal`, which
    /// a copy taken in the middle of a write would otherwise contradict.
    /// - Throws: `StoreError.file` when the file is missing, is no regular file (a directory, a FIFO, a
    ///   device), or cannot be copied; `.sqlite` when it is no SQLite database; `.invalidState` when it is
    ///   a database without a store's tables (with the reason when its `-wal` is missing).
    ///
    /// `findingRows` names rows to look for (a scenario's names for the objects of a store it starts
    /// from): those not in the store are in `missingRows`.
    /// With `sampleRows` above 0, each entity's first rows by key come with it (`Entity.samples`).
    /// `spelling`, the app's model, names entities and properties as it spells them (a column keeps only
    /// the upper-case form) and tells where a to-one points when the schema does not.
    public static func inspect(_ given: URL, scratch: URL? = nil, findingRows rows: [StoreRow] = [], sampleRows: Int = 0,
                               spelling: ModelDescription? = nil) throws(StoreError) -> StoreInspection
    {
        try examine(given, scratch: scratch, findingRows: rows, fitting: nil, sampleRows: sampleRows, spelling: spelling).inspection
    }

    /// `inspect(_:scratch:findingRows:)`, and on the same copy, when `models` are given, which of them the
    /// store has (see `StoreSchema.fits`): what a scenario that starts from the store checks, reading it once.
    /// With `fitting` nil and `inferring`, whether the model the schema shows (`inferredModel()`) fits it.
    public static func examine(_ given: URL, scratch: URL? = nil, findingRows rows: [StoreRow] = [],
                               fitting models: [ModelDescription]?, inferring: Bool = false,
                               budget: Duration = defaultBudget, sampleRows: Int = 0, spelling: ModelDescription? = nil)
        throws(StoreError) -> StoreExamination
    {
        let deadline = deadline(after: budget)
        let fm = FileManager.default
        guard fm.fileExists(atPath: given.path) else { throw .file(path: given.path, reason: "no such file") }
        let url = given.resolvingSymlinksInPath()
        let scratch = scratch ?? fm.temporaryDirectory.appendingPathComponent("groupsim-inspect-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: scratch) }
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try examineOnce(url, reportedAs: given.path, scratch: scratch, rows: rows, models: models, inferring: inferring,
                                       deadline: deadline, sampleRows: sampleRows, spelling: spelling)
            } catch let failure where failure.sqliteError?.code == .interrupt {
                throw stopped(given.path, budget, failure)
            } catch let failure where failure.sqliteError?.code == .notADatabase {
                throw .file(path: given.path, reason: "not a SQLite database (SQLite says: file is not a database); "
                    + "a Core Data store is the .sqlite file beside its -wal and -shm")
            } catch let failure where failure.sqliteError?.code == .corrupt && attempt < 5 {
                // Copied while another process wrote: copy again.
                try? fm.removeItem(at: scratch)
                usleep(UInt32(20_000 * attempt))
            }
        }
    }

    private static func examineOnce(_ url: URL, reportedAs path: String, scratch: URL, rows: [StoreRow],
                                    models: [ModelDescription]?, inferring: Bool, deadline: UInt64, sampleRows: Int,
                                    spelling: ModelDescription?)
        throws(StoreError) -> StoreExamination
    {
        let copy = scratch.appendingPathComponent(url.lastPathComponent)
        let files = try copyStore(url, reportedAs: path, to: copy)
        do {
            let db = try SQLiteConnection(path: copy.path, walMode: false)
            db.stopStatements(at: deadline)
            guard try db.tableExists("Z_PRIMARYKEY"), try db.tableExists("Z_METADATA") else {
                let walMode = (try? FileHandle(forReadingFrom: copy).read(upToCount: 20)).map { $0.count == 20 && $0[18] == 2 } ?? false
                if walMode, files.wal == nil {
                    throw StoreError.invalidState("\(path) has no store tables in its .sqlite file, and it is in WAL mode without its "
                        + "-wal: it was copied without it, and every commit not yet checkpointed, its schema included, is missing")
                }
                throw StoreError.invalidState("\(path) is a SQLite database without Z_PRIMARYKEY and Z_METADATA: not a Core Data store")
            }
            var reader = InspectionReader(db: db, sampleRows: sampleRows, spelling: spelling)
            var inspection = try reader.read(path: path, files: files)
            if !rows.isEmpty { inspection.missingRows = try reader.missing(rows, in: inspection) }
            // The model read off the schema is checked like a given one: a schema it misreads (a broken
            // `Z_SUPER`, a missing companion column) is refused here, not when a process opens the store.
            let candidates = models ?? (inferring ? (try? inspection.inferredModel()).map { [$0] } : nil)
            return StoreExamination(inspection: inspection, fit: try candidates.map { models throws in try fit(db, models) })
        } catch let error as StoreError {
            throw error
        } catch {
            throw .wrap(error)
        }
    }

    /// Copies the store at `url` (with its `-journal` and `-wal`; the `-shm` only measured) to `copy`,
    /// refusing a copy that would fill the disk; returns the sizes.
    static func copyStore(_ url: URL, reportedAs path: String, to copy: URL) throws(StoreError) -> StoreInspection.Files {
        let fm = FileManager.default
        let scratch = copy.deletingLastPathComponent()
        func size(_ suffix: String) -> Int64? {
            (try? fm.attributesOfItem(atPath: url.path + suffix)[.size] as? NSNumber)?.int64Value
        }
        do {
            try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
            // A copy that would fill the disk is refused before it starts (a -wal never checkpointed can be
            // many gigabytes); a sparse file needs only what it has allocated.
            let needed = ["", "-wal", "-journal"].compactMap { suffix in
                size(suffix).map { min($0, SparseCopy.allocatedBytes(atPath: url.path + suffix) ?? $0) }
            }.reduce(0, +)
            if let free = (try? fm.attributesOfFileSystem(forPath: scratch.path)[.systemFreeSize] as? NSNumber)?.int64Value,
               needed > free - (256 << 20) {
                throw StoreError.file(path: path, reason: "reading it needs a copy of \(needed) bytes (with its -wal), "
                    + "and \(scratch.deletingLastPathComponent().path) has \(free) bytes free; set TMPDIR to a larger disk")
            }
            let store = try copyRegularFile(url, to: copy)
            func side(_ suffix: String) throws(StoreError) -> Int64? {
                let source = URL(fileURLWithPath: url.path + suffix)
                guard fm.fileExists(atPath: source.path) else { return nil }
                return try copyRegularFile(source, to: URL(fileURLWithPath: copy.path + suffix))
            }
            // A hot rollback journal is rolled back in the copy, as SQLite would at the next open.
            _ = try side("-journal")
            return StoreInspection.Files(store: store, wal: try side("-wal"), shm: size("-shm"))
        } catch let error as StoreError {
            throw error
        } catch {
            throw .file(path: path, reason: "cannot copy it to read it: \(error.localizedDescription)")
        }
    }

    /// Copies the bytes `source` (a regular file, through symbolic links) holds when the copy starts, and
    /// no more: a `-wal` another process is appending to is copied as it was (SQLite ignores a frame cut
    /// short), and a FIFO or a device, which never ends, is refused. Returns the size copied.
    private static func copyRegularFile(_ source: URL, to destination: URL) throws(StoreError) -> Int64 {
        let resolved = source.resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: resolved.path) } catch {
            throw .file(path: source.path, reason: "cannot read its attributes: \(error.localizedDescription)")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .file(path: source.path, reason: "\(source.lastPathComponent) is not a regular file (a directory, a FIFO or a device "
                + "cannot be a store's file)")
        }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw .file(path: destination.path, reason: "cannot create the copy")
        }
        do {
            let input = try FileHandle(forReadingFrom: resolved)
            defer { try? input.close() }
            let output = try FileHandle(forWritingTo: destination)
            defer { try? output.close() }
            return try SparseCopy.copy(from: input.fileDescriptor, to: output.fileDescriptor, length: size)
        } catch {
            throw .file(path: source.path, reason: "cannot copy it to read it: \(error.localizedDescription)")
        }
    }
}
