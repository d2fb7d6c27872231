import Basics
import Foundation
import SharedStore
import Trace

extension AgentProcess {
    /// Which file a process opens: its store in its container, a copy it took (read-only), or the empty
    /// store it falls back to when its own does not load (`on-load-failure: in-memory`).
    enum StoreFile {
        case container
        case copy(URL)
        case fallback(URL)
    }

    /// Compiles the model and opens the store in the process's container (or `file`) with its settings.
    static func openStore(config: AgentConfig, clock: AgentClock, lockWaits: LockWaits = .wait,
                          file: StoreFile = .container) throws -> StoreCoordinator {
        let model = try Model(config.model)
        let settings = config.settings
        var readOnly = settings.readOnly
        if case .copy = file { readOnly = true }
        var options = StoreOptions(
            historyTracking: settings.historyTracking,
            busyTimeout: .nanoseconds(Int64(clamping: settings.busyTimeout.nanos)),
            readOnly: readOnly,
            bundleIdentifier: config.role.rawValue)
        options.writeTransactions = settings.writeTransactions
        options.lockWaits = lockWaits
        // History names the process, as Core Data names the executable writing it.
        options.processName = config.process
        options.previousModels = try previousModels(config)
        options.migratesAutomatically = settings.migrate
        // The runner's stores are its own: a sandbox's, or a copy of the file a scenario starts from.
        options.writesForeignStores = true
        let coordinator: StoreCoordinator
        switch file {
        case .copy(let url), .fallback(let url):
            coordinator = try StoreCoordinator(url: url, model: model, options: options, clock: clock)
        case .container:
            let containers = AppGroupContainers(
                root: URL(fileURLWithPath: config.store.containersRoot), groups: [config.store.group])
            coordinator = try StoreCoordinator(
                containers: containers, group: config.store.group, name: config.store.name,
                model: model, options: options, clock: clock)
        }
        let view = coordinator.viewContext
        view.stalenessInterval = settings.staleness.timeInterval
        view.mergePolicy = settings.mergePolicy
        view.transactionAuthor = settings.author
        view.shouldDeleteInaccessibleFaults = settings.deleteInaccessibleFaults
        view.automaticallyMergesChangesFromParent = settings.automaticallyMerges
        return coordinator
    }

    /// Opens the empty store a process whose own did not load falls back to (`on-load-failure:
    /// in-memory`): a new file beside the run's containers, made afresh at each launch, as an in-memory
    /// store lives only as long as its process. Its writes reach no other process.
    static func openFallbackStore(config: AgentConfig, clock: AgentClock) throws -> StoreCoordinator {
        let directory = URL(fileURLWithPath: config.store.containersRoot).deletingLastPathComponent()
            .appendingPathComponent("in-memory").appendingPathComponent(config.process)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var fresh = config
        fresh.settings.readOnly = false
        return try openStore(config: fresh, clock: clock, file: .fallback(directory.appendingPathComponent("\(config.store.name).sqlite")))
    }

    /// Routes the store's events into the trace, naming objects by scenario id.
    func wireStoreEvents() {
        // Store events arrive synchronously on this (the only) thread.
        nonisolated(unsafe) let agent = self
        coordinator.eventSink = { event in agent.recordStoreEvent(event) }
        coordinator.commitObserver = { phase in agent.commitTimes.observe(phase, at: agent.time.reading()) }
        coordinator.beforeCommit = { [unowned self] _ in
            guard self.crashArmed else { return }
            // A save the runner holds open dies at its COMMIT (`commitHeld`), holding the lock until then.
            if self.heldWrite?.heldForRunner == true {
                self.heldWrite?.crashAtCommit = true
                return
            }
            self.dieAtCommit()
        }
    }

    /// The kill point of `crash ... during: save`: statements done, COMMIT not yet. Says so to the runner,
    /// which kills the process, and waits for it.
    func dieAtCommit() -> Never {
        reply(AgentReply(seq: currentSeq, status: .atCommit))
        while true { pause() }
    }

    private func recordStoreEvent(_ event: StoreEvent) {
        switch event {
        case .sqlRead(let entity, let rows, _):
            record(.sqlRead(entity: entity, rows: rows))
        case .faultFulfilled(let object, let source, _, _):
            let read: ReadSource = switch source {
            case .cache: .cache
            case .sql: .sql
            case .pinnedGeneration: .generation
            case .parentContext: .parent
            }
            lastFaultSource = read
            record(.faultFulfilled(object: ids.name(of: object), source: read))
        case .snapshotDropped(let object, _):
            record(.snapshotDropped(object: ids.name(of: object)))
        case .batch(_, _, _, _, let changes):
            lastBatchChanges = changes
        default:
            // Saves, conflicts and history are recorded from their results, with scenario ids.
            break
        }
    }

    /// The attribute type of `entity.name`, for converting the runner's values.
    func attributeType(_ entity: String, _ name: String) -> AttributeType? {
        coordinator.model.attributes(of: entity)?.first { $0.name == name }?.type
    }

    /// A step's values for `entity`, converted to this process's model's types (its version may differ
    /// from the one the file was checked against): an attribute it lacks, or a value that does not fit,
    /// fails as Core Data's `setValue(_:forKey:)` would.
    func storeValues(_ values: [String: Value], entity: String) throws -> [String: Value] {
        var result: [String: Value] = [:]
        for (name, value) in values {
            guard let type = attributeType(entity, name) else {
                throw StoreError.unknownProperty(entity: entity, property: name)
            }
            guard let converted = value.converted(to: type) else {
                throw StoreError.typeMismatch(entity: entity, property: name, value: value, expected: type)
            }
            result[name] = converted
        }
        return result
    }
}

extension TraceValue {
    /// This value as the store holds an attribute of `type`.
    public func storeValue(as type: AttributeType, entity: String, property: String) throws -> Value {
        let value: Value
        switch self {
        case .null: value = .null
        case .string(let text): value = try Value.from(scalar: text, as: type)
        // A date travels as seconds since 1970, which JSON gives back as an integer when it is whole.
        case .int(let number): value = type == .date ? .date(Date(timeIntervalSince1970: Double(number))) : .int(number)
        case .double(let number):
            value = type == .date ? .date(Date(timeIntervalSince1970: number)) : .double(number)
        case .bool(let flag): value = .bool(flag)
        }
        guard let converted = value.converted(to: type) else {
            throw StoreError.typeMismatch(entity: entity, property: property, value: value, expected: type)
        }
        return converted
    }
}
