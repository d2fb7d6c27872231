import Agent
import Basics
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// `restore-store: name`: the group store becomes the copy `name` under a new identifier. The runner
    /// does it between processes, as an app's restore does at launch: every process of the store must
    /// have exited (a process still holding the old file would go on writing to it).
    /// The rows a restore changed, as committed objects: each row of the copy inserted or updated (with
    /// its version and every value), each row only the replaced store had deleted.
    static func restoreChanges(from before: StateSnapshot, to after: StateSnapshot) -> [CommittedObject] {
        func key(_ object: ObjectState) -> String { "\(object.entity)#\(object.pk ?? -1)" }
        let old = Dictionary(before.objects.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let new = Set(after.objects.map(key))
        var changes = after.objects.map { row in
            CommittedObject(id: row.id, entity: row.entity, operation: old[key(row)] == nil ? .insert : .update,
                            version: row.version ?? 1, values: row.values, changed: row.values.keys.sorted(), pk: row.pk)
        }
        for row in before.objects where !new.contains(key(row)) {
            changes.append(CommittedObject(id: row.id, entity: row.entity, operation: .delete, version: row.version ?? 1, pk: row.pk))
        }
        return changes
    }

    func restoreStore(from name: String) throws(HarnessFailure) {
        let group = "group:\(plan.run.store.group)"
        // What the system runs on its own (a widget or control between reloads, an App Intent's process, a
        // notification service kept between pushes) it ends before the app replaces the store, as it ends
        // an idle extension: the file cannot end those. What the file launched, it must end itself.
        for slot in processesHolding(group) where slot.process.settings.role.traits.launch != .steps {
            record(.note("\(slot.name) is run by the system, which ends it before the store is replaced"), as: slot.name)
            try lifecycle(.terminate, slot)
        }
        let running = processesHolding(group).map(\.name)
        guard running.isEmpty else {
            throw failure("restore-store replaces the store file, and \(running.joined(separator: ", ")) still has it open; "
                + "exit or crash \(running.count == 1 ? "it" : "them") first")
        }
        let location = StoreLocation(containersRoot: sandbox.containers.path, group: plan.run.store.group,
                                     name: plan.run.store.name, traceName: group)
        let copy = sandbox.copies.appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("\(plan.run.store.name).sqlite")
        let before: StateSnapshot
        let url: URL
        do {
            url = try storeFile(location)
            before = try contents(of: url, as: group, namedAfter: group)
        } catch {
            throw failure("cannot read the store before restoring it: \(error)")
        }
        let start = time.reading()
        do {
            try StoreFiles.restore(url, from: copy)
        } catch {
            // As replacePersistentStore fails on a copy that is no store (one taken without its -wal
            // before any checkpoint has no schema): the step's error, and the store stays as it was.
            record(.error(ErrorRecord(kind: .storeLoadFailed, message: "the copy '\(name)' cannot replace the store: \(error)")))
            return
        }
        record(.note("the store \(group) was replaced by the copy '\(name)' under a new identifier"))
        // For the checkers the restore is one commit that makes every row the copy's: what was committed
        // before and is not in the copy is gone by it, not lost.
        let after: StateSnapshot
        do {
            after = try contents(of: url, as: group, namedAfter: group)
        } catch {
            throw failure("cannot read the store after restoring it: \(error)")
        }
        record(.saveCommitted(SaveCommit(store: group, source: .restore, objects: Self.restoreChanges(from: before, to: after))),
               start: start, as: "runner")
    }
}
