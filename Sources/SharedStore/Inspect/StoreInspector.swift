import Foundation

/// Reads a store file that Core Data (or SharedStore) wrote, without writing to it: `groupsim inspect`.
///
/// SQLite writes even to read a database in WAL mode (it builds the `-shm` index and may checkpoint when
/// the last connection closes), so the inspector reads a copy of the files in a temporary directory it
/// removes afterwards; the files it was given are never opened for writing.
public enum StoreInspector {
    /// Inspects the store at `url` (its `-wal` and `-shm` beside it, if any), copying them into
    /// `scratch` (a new temporary directory when nil), which is removed before it returns.
    /// - Throws: `StoreError.file` when the file is missing, is no regular file (a directory, a FIFO, a
    ///   device), or cannot be copied; `.sqlite` when it is no SQLite database; `.invalidState` when it is
    ///   a database without a store's tables.
    public static func inspect(_ url: URL, scratch: URL? = nil) throws(StoreError) -> StoreInspection {
        let fm = FileManager.default
        guard fm.fileExists(atPath: url.path) else { throw .file(path: url.path, reason: "no such file") }
        let scratch = scratch ?? fm.temporaryDirectory.appendingPathComponent("groupsim-inspect-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent(url.lastPathComponent)
        let files: StoreInspection.Files
        do {
            try fm.createDirectory(at: scratch, withIntermediateDirectories: true)
            // A copy that would fill the disk is refused before it starts (a -wal never checkpointed can be
            // many gigabytes).
            let needed = ["", "-wal", "-shm"].compactMap { suffix in
                (try? fm.attributesOfItem(atPath: url.resolvingSymlinksInPath().path + suffix)[.size] as? NSNumber)?.int64Value
            }.reduce(0, +)
            if let free = (try? fm.attributesOfFileSystem(forPath: scratch.path)[.systemFreeSize] as? NSNumber)?.int64Value,
               needed > free - (256 << 20) {
                throw StoreError.file(path: url.path, reason: "reading it needs a copy of \(needed) bytes (with its -wal and -shm), "
                    + "and \(scratch.deletingLastPathComponent().path) has \(free) bytes free; set TMPDIR to a larger disk")
            }
            let store = try copyRegularFile(url, to: copy)
            func side(_ suffix: String) throws(StoreError) -> Int64? {
                let source = URL(fileURLWithPath: url.path + suffix)
                guard fm.fileExists(atPath: source.path) else { return nil }
                return try copyRegularFile(source, to: URL(fileURLWithPath: copy.path + suffix))
            }
            files = StoreInspection.Files(store: store, wal: try side("-wal"), shm: try side("-shm"))
        } catch let error as StoreError {
            throw error
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
            throw .file(path: source.path, reason: "it is not a regular file (a directory, a FIFO or a device cannot be a store's file)")
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
            var left = size
            while left > 0 {
                guard let chunk = try input.read(upToCount: Int(min(left, 1 << 20))), !chunk.isEmpty else { break }
                try output.write(contentsOf: chunk)
                left -= Int64(chunk.count)
            }
            return size - left
        } catch {
            throw .file(path: source.path, reason: "cannot copy it to read it: \(error.localizedDescription)")
        }
    }
}
