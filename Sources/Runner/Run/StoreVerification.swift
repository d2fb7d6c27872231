import Agent
import Foundation
import SharedStore
import Trace

extension ScenarioRunner {
    /// Compares a store file (a copy, or the store after a crash) with every transaction committed to
    /// `store` before `before`, and records what is missing: the data-loss check.
    func verify(_ url: URL, label: String, reason: String, store: String, before: UInt64) {
        guard FileManager.default.fileExists(atPath: url.path) else {
            record(.verified(VerificationRecord(
                store: label, reason: reason, checked: 0, missing: ["the file \(url.lastPathComponent) does not exist"],
                objects: [label])))
            return
        }
        var names: [ObjectRef: String] = aliases[store] ?? [:]
        for (name, ref) in registry[store] ?? [:] { names[ref] = name }
        var expected: [ExpectedCommit] = []
        do {
            let model = try storeModel()
            for file in sandbox.traceFiles {
                for event in (try? TraceFile.readEvents(from: file)) ?? [] where event.t < before {
                    guard case .saveCommitted(let commit) = event.kind, commit.store == store else { continue }
                    for object in commit.objects {
                        let known = object.pk.map { ObjectRef(entity: object.entity, pk: $0) }
                        guard let ref = known ?? objectRef(object.id, entity: object.entity, store: store) else { continue }
                        var values: [String: Value] = [:]
                        for (key, value) in object.values {
                            guard let type = model.attributes(of: object.entity)?.first(where: { $0.name == key })?.type else { continue }
                            values[key] = try value.storeValue(as: type, entity: object.entity, property: key)
                        }
                        expected.append(ExpectedCommit(
                            entity: object.entity, primaryKey: ref.pk, version: object.version, values: values,
                            isDelete: object.operation == .delete))
                    }
                }
            }
            let missing = try StoreFiles.verify(url, model: model, committed: expected)
            let objects = missing.map { item in
                let ref = ObjectRef(entity: item.expected.entity, pk: item.expected.primaryKey)
                return names[ref] ?? ref.description
            }
            record(.verified(VerificationRecord(
                store: label, reason: reason, checked: expected.count,
                missing: zip(objects, missing).map { "\($0): \($1.reason)" }, objects: objects)))
        } catch {
            record(.error(ErrorRecord(kind: "other", message: "cannot verify \(label): \(error)")))
        }
    }

    /// The row a trace name stands for: a scenario id the run knows, or `Entity#pk`.
    private func objectRef(_ name: String, entity: String, store: String) -> ObjectRef? {
        if let ref = registry[store]?[name] { return ref }
        let parts = name.split(separator: "#")
        guard parts.count == 2, let pk = Int64(parts[1]) else { return nil }
        return ObjectRef(entity: String(parts[0]), pk: pk)
    }
}
