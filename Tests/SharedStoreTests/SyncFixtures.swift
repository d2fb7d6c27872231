import Basics
import Foundation
import SharedStore
import TestSupport

/// Stores of one ensemble for sync tests: each store in its own directory, one shared transfer
/// directory, one simulated clock for every store and the transfer latency.
final class SyncWorld {
    let clock = ManualClock()
    let model: Model
    let transferDirectory: TemporaryDirectory
    var latency: TimeInterval

    init(model: Model? = nil, latency: TimeInterval = 0) throws {
        self.model = try model ?? Model(.notesExample)
        transferDirectory = try TemporaryDirectory(prefix: "sync-transfer")
        self.latency = latency
    }

    var transfer: DirectoryTransfer {
        DirectoryTransfer(root: transferDirectory.url, ensemble: "notes", latency: latency, clock: clock)
    }

    /// A store in its own directory, opened with history tracking, joined to this world's transfer.
    func peer(_ name: String, history: Bool = true, clockOffset: TimeInterval = 0) throws -> SyncPeer {
        try SyncPeer(name: name, world: self, history: history,
                     clock: OffsetClock(base: clock, offset: clockOffset))
    }
}

/// A device clock running `offset` seconds ahead of the world's (behind when negative).
struct OffsetClock: StoreClock {
    let base: ManualClock
    let offset: TimeInterval
    var now: Date { base.now.addingTimeInterval(offset) }
}

/// One device's store and its ensemble membership.
final class SyncPeer {
    let name: String
    let directory: TemporaryDirectory
    let url: URL
    let world: SyncWorld
    private(set) var store: StoreCoordinator
    fileprivate(set) var ensemble: SyncEnsemble

    let clock: any StoreClock

    init(name: String, world: SyncWorld, history: Bool = true, clock: any StoreClock) throws {
        self.name = name
        self.world = world
        self.clock = clock
        directory = try TemporaryDirectory(prefix: "sync-\(name)")
        url = directory.url.appendingPathComponent("\(name).sqlite")
        store = try StoreCoordinator(url: url, model: world.model,
                                     options: StoreOptions(historyTracking: history, bundleIdentifier: name),
                                     clock: clock)
        ensemble = SyncEnsemble(store: store, transfer: world.transfer, storeName: name)
    }

    /// Opens the store again, as a relaunched process would (after a crash).
    func relaunch() throws {
        store = try StoreCoordinator(url: url, model: world.model,
                                     options: StoreOptions(historyTracking: true, bundleIdentifier: name),
                                     clock: clock)
        ensemble = SyncEnsemble(store: store, transfer: world.transfer, storeName: name)
    }

    var context: ObjectContext { store.viewContext }

    /// Inserts one object and saves; returns its ID.
    @discardableResult
    func insert(_ entity: String, _ values: [String: Value]) throws -> ObjectID {
        let context = store.newBackgroundContext(name: name)
        context.transactionAuthor = name
        let temporary = try context.insert(entity, values: values)
        return try context.save().permanentIDs[temporary]!
    }

    func update(_ id: ObjectID, _ values: [String: Value]) throws {
        let context = store.newBackgroundContext(name: name)
        context.transactionAuthor = name
        try context.setValues(values, for: id)
        try context.save()
    }

    func delete(_ id: ObjectID) throws {
        let context = store.newBackgroundContext(name: name)
        context.transactionAuthor = name
        try context.delete(id)
        try context.save()
    }

    @discardableResult
    func sync() throws -> SyncResult { try ensemble.sync() }

    /// The store's objects of `entity` as read now from SQL, in primary-key order.
    func objects(_ entity: String) throws -> [ObjectID] {
        try store.newBackgroundContext(name: "check").fetch(FetchRequest(entity: entity))
    }

    /// Every object's attribute values as `name=value` lines, sorted so two converged stores compare equal.
    func rows(_ entity: String) throws -> [String] {
        let context = store.newBackgroundContext(name: "check")
        let ids = try context.fetch(FetchRequest(entity: entity))
        return try ids.map { id in
            try context.values(of: id).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }.sorted()
    }

    func count(_ entity: String) throws -> Int { try objects(entity).count }
}

/// A transfer service that hides some files from one store (a file still on its way to that device).
final class DelayedTransfer: TransferService {
    let base: any TransferService
    var hidden: (String) -> Bool

    init(base: any TransferService, hidden: @escaping (String) -> Bool) {
        self.base = base
        self.hidden = hidden
    }

    func list() throws -> [String] { try base.list().filter { !hidden($0) } }
    func read(_ name: String) throws -> Data { try base.read(name) }
    func write(_ name: String, data: Data) throws { try base.write(name, data: data) }
}

extension SyncPeer {
    /// Uses `transfer` from now on (same store, same ensemble membership).
    func use(_ transfer: any TransferService) {
        ensemble = SyncEnsemble(store: store, transfer: transfer, storeName: name)
    }
}
