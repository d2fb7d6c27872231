import Basics
import Foundation

/// The history a store recorded, with what the rows it names hold now (`groupsim import`).
public struct RecordedHistory: Sendable {
    /// The newest transactions, oldest first.
    public var transactions: [HistoryTransaction]
    /// How many older transactions were left out.
    public var omitted: Int
    /// What each inserted or updated object of `transactions` holds now (absent: its row is gone).
    public var rows: [ObjectID: [String: Value]]
    /// The first rows of each entity that has objects (up to the `samples` asked for), with their values:
    /// objects a skeleton can name when the history names none.
    public var samples: [ObjectID: [String: Value]] = [:]
}

extension StoreInspector {
    /// Reads the newest `limit` history transactions of the store at `given` with `model` (which must fit
    /// it), and the values the rows they insert or update hold now; from a copy in `scratch` (a new temporary
    /// directory when nil), removed before it returns.
    /// - Throws: `StoreError` when the store cannot be copied or opened with `model`.
    public static func recordedHistory(_ given: URL, model: ModelDescription, limit: Int, samples: Int = 0,
                                       scratch: URL? = nil, budget: Duration = defaultBudget) throws(StoreError) -> RecordedHistory
    {
        do {
            return try readHistory(given, model: model, limit: limit, samples: samples, scratch: scratch, deadline: deadline(after: budget))
        } catch let failure where failure.sqliteError?.code == .interrupt {
            throw stopped(given.path, budget, failure)
        }
    }

    private static func readHistory(_ given: URL, model: ModelDescription, limit: Int, samples: Int, scratch: URL?,
                                    deadline: UInt64) throws(StoreError) -> RecordedHistory
    {
        let fm = FileManager.default
        guard fm.fileExists(atPath: given.path) else { throw .file(path: given.path, reason: "no such file") }
        let url = given.resolvingSymlinksInPath()
        let scratch = scratch ?? fm.temporaryDirectory.appendingPathComponent("groupsim-import-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent(url.lastPathComponent)
        _ = try copyStore(url, reportedAs: given.path, to: copy)
        let compiled: Model
        do { compiled = try Model(model) } catch { throw .invalidState("the model does not compile: \(error)") }
        // Core Data makes tables only: a view (a query that may never end) is someone else's, and not read.
        // Only the newest `limit` transactions are read: the token before them, and how many are older.
        var older: (token: Int64, count: Int)?
        do {
            // Read-write, on the copy: a hot rollback journal copied with it is rolled back here, as SQLite
            // does at the next open (read-only, the open fails with SQLITE_READONLY_ROLLBACK).
            let db = try SQLiteConnection(path: copy.path, walMode: false)
            defer { db.close() }
            db.stopStatements(at: deadline)
            let statement = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name LIMIT 1")
            if try statement.step(), let view = statement.value(at: 0).stringValue {
                throw StoreError.invalidState("\(given.lastPathComponent) holds a view ('\(VisibleText.escaped(view))'), which Core Data never makes; "
                    + "it is not read")
            }
            try indexKeys(db)
            if try db.tableExists("ATRANSACTION"),
               let token = try db.scalarInt("SELECT Z_PK FROM ATRANSACTION ORDER BY Z_PK DESC LIMIT 1 OFFSET ?", [.int(Int64(max(0, limit)))]) {
                older = (token, Int(try db.scalarInt("SELECT count(*) FROM ATRANSACTION WHERE Z_PK <= ?", [.int(token)]) ?? 0))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.wrap(error)
        }
        let store: StoreCoordinator
        do {
            var options = StoreOptions(readOnly: true)
            options.statementDeadline = deadline
            store = try StoreCoordinator(url: copy, model: compiled, options: options)
        } catch let failure where failure.code == .modelMismatch {
            // Named in the store's terms: the copy's path means nothing to whoever runs this.
            var reason: String?
            if let db = try? SQLiteConnection(path: copy.path, readOnly: true) {
                reason = (try? StoreSchema.schemaProblem(db, compiled)) ?? nil
                db.close()
            }
            throw .invalidState("\(given.lastPathComponent) does not fit the model: " + (reason ?? "its metadata names another model"))
        }
        defer { store.close() }
        let sampled = try sampleRows(store, compiled, samples)
        guard (try? HistoryReader.requireTracking(store.core)) != nil else {
            return RecordedHistory(transactions: [], omitted: 0, rows: [:], samples: sampled)
        }
        let kept = Array(try store.fetchHistory(after: older?.token).transactions.suffix(max(0, limit)))
        let context = store.newBackgroundContext(name: "import")
        var rows: [ObjectID: [String: Value]] = [:]
        for change in kept.flatMap(\.changes) where change.operation != .delete && rows[change.object] == nil {
            if (try? context.existingObject(with: change.object)) != nil, let values = try? context.values(of: change.object) {
                rows[change.object] = values
            }
        }
        return RecordedHistory(transactions: kept, omitted: older?.count ?? 0, rows: rows, samples: sampled)
    }

    /// Gives every table whose `Z_PK` is not its primary key an index on it, in the copy: Core Data's tables
    /// have one, someone else's file need not, and each object read by key would then scan its table (a
    /// million rows: seconds per hundred objects).
    static func indexKeys(_ db: SQLiteConnection) throws(SQLiteError) {
        let tables = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.string(at: 0) ?? "") }
        for (number, name) in names.enumerated() {
            let info = try db.prepare("PRAGMA table_info(\(InspectionReader.quoted(name)))")
            var keyed: Bool?
            while try info.step() {
                if info.string(at: 1) == "Z_PK" { keyed = info.int64(at: 5) == 1 }
            }
            guard keyed == false else { continue }
            try db.execute("CREATE INDEX IF NOT EXISTS \"groupsim_key_\(number)\" ON \(InspectionReader.quoted(name)) (Z_PK)")
        }
    }

    /// The first `count` rows (by key) of each entity that can have objects, with their values.
    private static func sampleRows(_ store: StoreCoordinator, _ model: Model, _ count: Int) throws(StoreError) -> [ObjectID: [String: Value]] {
        guard count > 0 else { return [:] }
        let context = store.newBackgroundContext(name: "import-samples")
        var result: [ObjectID: [String: Value]] = [:]
        for entity in model.entities where !entity.family.isAbstract {
            let request = FetchRequest(entity: entity.name, fetchLimit: count, includesSubentities: false)
            for id in try context.fetch(request) { result[id] = try context.values(of: id) }
        }
        return result
    }
}

extension StoreInspector {
    /// Which of `models` the store open on `db` has: the index of the first that fits it, or why the first
    /// does not.
    static func fit(_ db: SQLiteConnection, _ models: [ModelDescription]) throws -> Result<Int, ModelMismatch> {
        let metadata = try StoreSchema.storeMetadata(db)
        var first: String?
        for (index, description) in models.enumerated() {
            let model = try Model(description)
            if try StoreSchema.fits(db, model: model, metadata: metadata) { return .success(index) }
            if first == nil {
                first = metadata?.writtenByGroupSim == true
                    ? "the store was made by GroupSim with another model (hash \(metadata!.digest))"
                    : try StoreSchema.schemaProblem(db, model) ?? "its metadata names another model"
            }
        }
        return .failure(ModelMismatch(reason: first ?? "no model was given"))
    }
}

/// What `StoreInspector.examine` read off a store: the inspection, and which of the models asked about it has.
public struct StoreExamination: Sendable {
    public var inspection: StoreInspection
    /// The index of the first model that fits the store, or why the first does not; nil when none was asked about.
    public var fit: Result<Int, ModelMismatch>?
}

/// Why a model does not fit a store.
public struct ModelMismatch: Error, Sendable, Hashable {
    public var reason: String
}

