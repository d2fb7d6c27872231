import Basics
import Foundation
import SharedStore
import TestSupport

/// A fresh store file in its own temporary directory, on a manual clock, opened as many times as a test
/// needs (each `open()` is another process's view of the file: its own connections and row cache).
final class StoreFixture {
    let directory: TemporaryDirectory
    let url: URL
    let clock = ManualClock()
    let model: Model
    private let recorder = EventRecorder()

    init(model: Model? = nil) throws {
        directory = try TemporaryDirectory(prefix: "sharedstore")
        url = directory.url.appendingPathComponent("Notes.sqlite")
        self.model = try model ?? Model(.notesExample)
    }

    func open(history: Bool = false, readOnly: Bool = false, busyTimeout: Duration = .seconds(5),
              bundle: String? = nil, url: URL? = nil, writes: WriteTransactions = .immediate) throws -> StoreCoordinator
    {
        let recorder = self.recorder
        var options = StoreOptions(historyTracking: history, busyTimeout: busyTimeout, readOnly: readOnly,
                                   bundleIdentifier: bundle)
        options.writeTransactions = writes
        return try StoreCoordinator(url: url ?? self.url, model: model, options: options, clock: clock,
                                    eventSink: { recorder.append($0) })
    }

    var recorded: [StoreEvent] { recorder.events }
}

/// Collects events from a sink.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [StoreEvent] = []
    func append(_ event: StoreEvent) { lock.withLock { stored.append(event) } }
    var events: [StoreEvent] { lock.withLock { stored } }
    func clear() { lock.withLock { stored.removeAll() } }
}

extension ObjectContext {
    /// Inserts a note and saves; returns its permanent ID.
    func insertNote(_ title: String, rank: Int64 = 1) throws -> ObjectID {
        let temporary = try insert("Note", values: ["title": .string(title), "rank": .int(rank)])
        let result = try save()
        return result.permanentIDs[temporary]!
    }

    func title(_ id: ObjectID) throws -> String? {
        try value("title", of: id).stringValue
    }
}

extension StoreCoordinator {
    /// Another process's edit: a fresh context on this coordinator updates and saves.
    func update(_ id: ObjectID, _ values: [String: Value]) throws {
        let context = newBackgroundContext(name: "writer")
        try context.setValues(values, for: id)
        try context.save()
    }
}
