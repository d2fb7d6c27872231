import Foundation

/// Reads a store file that Core Data (or SharedStore) wrote, without writing to it: `groupsim inspect`.
///
/// SQLite writes even to read a database in WAL mode (it builds the `-shm` index and may checkpoint when
/// the last connection closes), so the inspector reads a copy of the files in a temporary directory it
/// removes afterwards; the files it was given are never opened for writing.
public enum StoreInspector {
    /// Inspects the store at `url` (its `-wal` and `-shm` beside it, if any).
    /// - Throws: `StoreError.file` when the file is missing or cannot be copied, `.sqlite` when it is no
    ///   SQLite database, `.invalidState` when it is a database without a store's tables.
    public static func inspect(_ url: URL) throws(StoreError) -> StoreInspection {
        let fm = FileManager.default
        guard fm.fileExists(atPath: url.path) else { throw .file(path: url.path, reason: "no such file") }
        let scratch = fm.temporaryDirectory.appendingPathComponent("groupsim-inspect-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent(url.lastPathComponent)
        let files: StoreInspection.Files
        do {
            try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
            try fm.copyItem(at: url, to: copy)
            func side(_ suffix: String) throws -> Int64? {
                let source = URL(fileURLWithPath: url.path + suffix)
                guard fm.fileExists(atPath: source.path) else { return nil }
                try fm.copyItem(at: source, to: URL(fileURLWithPath: copy.path + suffix))
                return size(source)
            }
            files = StoreInspection.Files(store: size(url) ?? 0, wal: try side("-wal"), shm: try side("-shm"))
        } catch {
            throw .file(path: url.path, reason: "cannot copy it to read it: \(error.localizedDescription)")
        }
        do {
            let db = try SQLiteConnection(path: copy.path, walMode: false)
            guard try db.tableExists("Z_PRIMARYKEY"), try db.tableExists("Z_METADATA") else {
                throw StoreError.invalidState("\(url.path) is a SQLite database without Z_PRIMARYKEY and Z_METADATA: not a Core Data store")
            }
            var reader = InspectionReader(db: db)
            return try reader.read(path: url.path, files: files)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .wrap(error)
        }
    }

    private static func size(_ url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }
}
