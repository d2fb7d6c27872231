import Foundation

// Why this type spans several files: it stands for NSPersistentStoreCoordinator with its store, whose
// concerns (opening, saving, batch operations, history, locks and files, model versions) each have a
// file; the shared state is declared here and in `StoreCore`.

/// One process's handle on a shared store (Core Data's persistent container and coordinator in one):
/// the connections, the row cache every context shares, the view context, and the trace hooks.
///
/// ```swift
/// let store = try StoreCoordinator(containers: containers, group: "group.example.notes", name: "Notes",
///                                  model: model, clock: clock, eventSink: { trace.record($0) })
/// let context = store.viewContext
/// let note = try context.insert("Note", values: ["title": "A"])
/// try context.save()
/// ```
/// Not thread-safe: a process confines its store and contexts to one thread.
public final class StoreCoordinator {
    let core: StoreCore
    /// The view context: the one a screen reads (it holds the pinned query generation, if any).
    public let viewContext: ObjectContext

    /// Opens (creating when new) the store at `url`.
    ///
    /// - Parameters:
    ///   - url: the `.sqlite` file.
    ///   - model: the compiled model; an existing store must have been made with the same one.
    ///   - options: history tracking, busy timeout, read-only, process identity.
    ///   - clock: the simulated wall clock (history timestamps, purges, positive staleness).
    ///   - eventSink: receives every `StoreEvent`.
    /// - Throws: `StoreError.modelMismatch` for a store made with another model; `.sqlite` when the file
    ///   cannot be opened.
    public init(url: URL, model: Model, options: StoreOptions = StoreOptions(), clock: any StoreClock = SystemClock(),
                eventSink: StoreEventSink? = nil) throws(StoreError)
    {
        core = try StoreCore(url: url, model: model, options: options, clock: clock, eventSink: eventSink)
        viewContext = ObjectContext(core: core, name: "viewContext", isViewContext: true)
    }

    /// Opens the store `<container of group>/<name>.sqlite`.
    /// - Throws: `ContainerError.unknownGroup` for an unregistered group, or the errors of `init(url:...)`.
    public convenience init(containers: AppGroupContainers, group: String, name: String, model: Model,
                            options: StoreOptions = StoreOptions(), clock: any StoreClock = SystemClock(),
                            eventSink: StoreEventSink? = nil) throws
    {
        let url = try containers.storeURL(group: group, name: name)
        try self.init(url: url, model: model, options: options, clock: clock, eventSink: eventSink)
    }

    /// A new context of this process, with its own registered objects and view, reading through the
    /// writer connection (never through a pinned generation).
    public func newBackgroundContext(name: String = "background") -> ObjectContext {
        ObjectContext(core: core, name: name, isViewContext: false)
    }

    /// The store file.
    public var url: URL { core.url }
    /// The model.
    public var model: Model { core.model }
    /// The store's identifier (`Z_METADATA.Z_UUID`), part of every object ID.
    public var storeIdentifier: String { core.storeIdentifier }
    /// The rows a lightweight migration at this open rewrote (SQLite rewrites a table to drop a column,
    /// copies rows into a new table); 0 when the store fit.
    public var rowsMigratedAtOpen: Int { core.rowsMigratedAtOpen }
    /// The simulated clock.
    public var clock: any StoreClock { core.clock }
    /// The options the store was opened with.
    public var options: StoreOptions { core.options }

    /// Receives every `StoreEvent` (SQL reads, faults, dropped snapshots, commits, conflicts, history).
    public var eventSink: StoreEventSink? {
        get { core.eventSink }
        set { core.eventSink = newValue }
    }

    /// Called inside every save after all its statements ran and before COMMIT (the runner kills the
    /// process here for `crash ... during: save`).
    public var beforeCommit: ((BeforeCommitEvent) -> Void)? {
        get { core.beforeCommit }
        set { core.beforeCommit = newValue }
    }

    /// Told just before and just after every COMMIT that publishes this process's writes (saves, batch
    /// operations, purges, sync imports, `endWrite`); a savepoint inside a held write is not a commit.
    /// A tracer stamps the two moments to give each commit an interval that contains its commit point.
    public var commitObserver: ((CommitPhase) -> Void)? {
        get { core.commitObserver }
        set { core.commitObserver = newValue }
    }

    /// Whether saves fail with read-only (opened read-only, or the history-tracking trap), and why.
    public var readOnlyReason: String? { core.readOnlyReason }

    /// Whether this process records persistent history.
    public var isHistoryTrackingEnabled: Bool { core.historyTracking }

    /// Calls `observer` after every successful save of any context of this process
    /// (`NSManagedObjectContextDidSave`), after contexts that merge automatically have merged.
    public func addDidSaveObserver(_ observer: @escaping (DidSaveEvent) -> Void) {
        core.didSaveObservers.append(observer)
    }

    /// The ID of the row `primaryKey` of `entity` in this store.
    /// - Throws: `StoreError.unknownEntity`.
    public func objectID(entity: String, primaryKey: Int64) throws(StoreError) -> ObjectID {
        let info = try core.model.entity(named: entity)
        return core.objectID(info, primaryKey)
    }

    /// Drops every row snapshot of this process (as if the process had been relaunched with its contexts kept).
    public func dropRowCache() {
        core.dropRowCache()
    }

    /// How many row snapshots the cache holds.
    public var rowCacheCount: Int { core.rowCount }
}
