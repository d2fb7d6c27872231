import Agent
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// `store: { from: }`: puts a copy of the store file (with its `-wal` and `-shm`) in the group's
    /// container before any process launches, names the rows the scenario names, and records what the file
    /// holds as one commit by the runner (`source: store-file`), so that the checkers judge reads of those
    /// rows against them and no row of the file reads as a phantom.
    func seedStore() throws(HarnessFailure) {
        guard let given = plan.run.store.from else { return }
        // A symbolic link is followed: the files beside its target are the store's, and what is copied is
        // their bytes (a copied link would lead the run's writes back to the original).
        let source = URL(fileURLWithPath: given.path).resolvingSymlinksInPath().path
        let group = "group:\(plan.run.store.group)"
        let location = StoreLocation(containersRoot: sandbox.containers.path, group: plan.run.store.group,
                                     name: plan.run.store.name, traceName: group)
        let start = time.reading()
        let url: URL
        let fm = FileManager.default
        let needed = ["", "-wal", "-shm"].compactMap { (try? fm.attributesOfItem(atPath: source + $0)[.size] as? NSNumber)?.int64Value }
            .reduce(0, +)
        if let free = (try? fm.attributesOfFileSystem(forPath: sandbox.root.path)[.systemFreeSize] as? NSNumber)?.int64Value,
           needed > free - (256 << 20) {
            throw failure("the store file \(given.path) the run starts from needs \(needed) bytes in the sandbox, and its disk has \(free) free")
        }
        do {
            url = try storeFile(location)
            for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: source + suffix) {
                let file = URL(fileURLWithPath: source + suffix).resolvingSymlinksInPath().path
                guard (try fm.attributesOfItem(atPath: file))[.type] as? FileAttributeType == .typeRegular else {
                    throw failure("\(file) is not a regular file: a store's files cannot be a directory, a FIFO or a device")
                }
                try fm.copyItem(atPath: file, toPath: url.path + suffix)
            }
        } catch let error as HarnessFailure {
            throw error
        } catch {
            throw failure("cannot copy the store file \(given.path) the run starts from: \(error.localizedDescription)")
        }
        for (name, row) in given.objects.sorted(by: { $0.key < $1.key }) {
            objects.learn(AgentReply(seq: 0, status: .ok, inserted: [name: ObjectRef(entity: row.entity, pk: row.primaryKey)]),
                          in: group)
        }
        let contents: StateSnapshot
        do {
            contents = try self.contents(of: url, as: group, namedAfter: group)
        } catch {
            throw failure("cannot read the store file \(given.path) the run starts from: \(error)")
        }
        record(.note("the run starts from a copy of \(given.path): \(contents.objects.count) objects"))
        record(.saveCommitted(SaveCommit(store: group, source: .storeFile,
                                         objects: Self.restoreChanges(from: StateSnapshot(store: group, objects: []), to: contents))),
               start: start, as: "runner")
    }
}
