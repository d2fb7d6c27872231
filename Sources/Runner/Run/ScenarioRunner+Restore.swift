import Agent
import Basics
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// `restore-store: name`: the group store becomes the copy `name` under a new identifier. The runner
    /// does it between processes, as an app's restore does at launch: every process of the store must
    /// have exited (a process still holding the old file would go on writing to it).
    func restoreStore(from name: String) throws(HarnessFailure) {
        let group = "group:\(plan.run.store.group)"
        let running = orderedSlots.filter { $0.store == group && $0.lifecycle.state.isRunning }.map(\.name)
        guard running.isEmpty else {
            throw failure("restore-store replaces the store file, and \(running.joined(separator: ", ")) still has it open; "
                + "exit or crash \(running.count == 1 ? "it" : "them") first")
        }
        let location = StoreLocation(containersRoot: sandbox.containers.path, group: plan.run.store.group,
                                     name: plan.run.store.name, traceName: group)
        let copy = sandbox.copies.appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(plan.run.store.name).sqlite")
        do {
            try StoreFiles.restore(try storeFile(location), from: copy)
        } catch {
            // As replacePersistentStore fails on a copy that is no store (one taken without its -wal
            // before any checkpoint has no schema): the step's error, and the store stays as it was.
            record(.error(ErrorRecord(kind: .storeLoadFailed, message: "the copy '\(name)' cannot replace the store: \(error)")))
            return
        }
        record(.note("the store \(group) was replaced by the copy '\(name)' under a new identifier"))
    }
}
