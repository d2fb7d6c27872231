import Trace

/// Judges the end of the run: `duplicate` and `data-loss` in each final store, `data-loss` from
/// verifications (crash, copy, restart), and `not-converged` for each live process's final view
/// against the final state of the store that process reads.
struct FinalStateChecker {
    private struct Snapshot {
        var snapshot: StateSnapshot
        var process: String
        var t: UInt64
    }

    let context: RunContext
    private var stores: [String: Snapshot] = [:]
    private var storeOrder: [String] = []
    private var views: [Snapshot] = []
    /// Objects a verification already reported missing, per store (not reported twice).
    private var verifiedMissing: [String: Set<String>] = [:]

    init(context: RunContext) {
        self.context = context
    }

    mutating func verified(_ record: VerificationRecord, process: String, step: Int?, t: UInt64, into anomalies: inout [Anomaly]) {
        let subject: String
        switch record.reason {
        case "crash": subject = "After a crash, \(record.store)"
        case "restart": subject = "After a restart, \(record.store)"
        case "copy": subject = "The copy \(record.store)"
        default: subject = "At the end, \(record.store)"
        }
        for (index, missing) in record.missing.enumerated() {
            let object = index < record.objects.count ? record.objects[index] : nil
            if let object { verifiedMissing[record.store, default: []].insert(object) }
            anomalies.append(context.anomaly(
                .dataLoss, process: context.store(of: process) == nil ? record.store : process, step: step, t: t,
                object: object, seen: "missing", expected: missing,
                explanation: "\(subject) is missing a committed change: \(missing)."))
        }
    }

    mutating func finalStore(_ snapshot: StateSnapshot, process: String, t: UInt64) {
        if stores[snapshot.store] == nil { storeOrder.append(snapshot.store) }
        stores[snapshot.store] = Snapshot(snapshot: snapshot, process: process, t: t)
    }

    mutating func finalView(_ snapshot: StateSnapshot, process: String, t: UInt64) {
        views.append(Snapshot(snapshot: snapshot, process: process, t: t))
    }

    func finish(oracle: CommitOracle, into anomalies: inout [Anomaly]) {
        var committedByStore: [String: [ObjectHistory]] = [:]
        for (key, history) in oracle.objects where stores[key.store] != nil {
            committedByStore[key.store, default: []].append(history)
        }
        for store in storeOrder {
            let final = stores[store]!
            checkDuplicates(final, oracle: oracle, into: &anomalies)
            checkCommitted(final, committed: committedByStore[store] ?? [], into: &anomalies)
        }
        for view in views {
            // A view read from a copy (`open-copy`) shows the copy, not the live store.
            guard !view.snapshot.store.hasPrefix("copy"),
                  let store = context.store(of: view.process), let final = stores[store] else { continue }
            checkConvergence(view, against: final, into: &anomalies)
        }
    }

    private func checkDuplicates(_ final: Snapshot, oracle: CommitOracle, into anomalies: inout [Anomaly]) {
        let store = final.snapshot.store
        var counts: [String: Int] = [:]
        for object in final.snapshot.objects { counts[object.id, default: 0] += 1 }
        for (id, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 {
            let inserts = oracle.history(store: store, object: id)?.operations.filter { $0.operation == .insert } ?? []
            let by = inserts.isEmpty ? "" : " (inserted by " + inserts.map { "\($0.writer) at \(context.at($0.end))" }.joined(separator: " and ") + ")"
            anomalies.append(context.anomaly(
                .duplicate, process: store, step: nil, t: final.t, object: id, seen: "\(count) copies", expected: "1",
                explanation: "\(id) exists \(count) times in the final store \(store)\(by)."))
        }
    }

    private func checkCommitted(_ final: Snapshot, committed: [ObjectHistory], into anomalies: inout [Anomaly]) {
        let store = final.snapshot.store
        // One id may name several rows (a duplicate): a committed value is lost only if no row holds it.
        var present: [String: [ObjectState]] = [:]
        for object in final.snapshot.objects { present[object.id, default: []].append(object) }
        let reported = verifiedMissing[store] ?? []
        for history in committed.sorted(by: { $0.id < $1.id }) where !reported.contains(history.id) {
            guard let latest = history.latest, latest.operation != .delete else { continue }
            guard let rows = present[history.id] else {
                anomalies.append(context.anomaly(
                    .dataLoss, process: store, step: nil, t: final.t, object: history.id, seen: "missing",
                    expected: "\(history.id) version \(latest.version)", cause: latest.reference,
                    explanation: "The final store \(store) has no \(history.id), though \(latest.writer) committed it at \(context.at(latest.end)) (version \(latest.version)) and nobody deleted it."))
                continue
            }
            for property in history.properties.keys.sorted() {
                guard let newest = history.property(property)?.entries.last,
                      !rows.contains(where: { $0.values[property].map { $0.matches(newest.value) } ?? true }),
                      let value = rows.first?.values[property] else { continue }
                anomalies.append(context.anomaly(
                    .dataLoss, process: store, step: nil, t: final.t, object: history.id, property: property,
                    seen: "\(value)", expected: "\(newest.value) (version \(newest.version))", cause: newest.reference,
                    explanation: "The final store \(store) has \(history.id).\(property) = \(value), but the latest committed value is \(newest.value), by \(newest.writer) at \(context.at(newest.end)) (version \(newest.version))."))
            }
        }
    }

    private func checkConvergence(_ view: Snapshot, against final: Snapshot, into anomalies: inout [Anomaly]) {
        let process = view.process, store = final.snapshot.store
        // One id may name several rows (a duplicate): the view's object is compared with the closest.
        var rows: [String: [ObjectState]] = [:]
        for object in final.snapshot.objects { rows[object.id, default: []].append(object) }
        var inView: [String: ObjectState] = [:]
        for object in view.snapshot.objects where inView[object.id] == nil { inView[object.id] = object }
        // A view holds what its fetches returned: the objects it lacks are those its own fetches would
        // return now (`absent`, recorded by the process itself after its final refresh).
        func add(_ object: String, _ property: String?, seen: String, expected: String, _ explanation: String) {
            anomalies.append(context.anomaly(
                .notConverged, process: process, step: nil, t: view.t, object: object, property: property,
                seen: seen, expected: expected, explanation: explanation))
        }
        for id in Set(view.snapshot.absent).sorted() where inView[id] == nil {
            add(id, nil, seen: "no \(id)", expected: "\(id) in the view",
                "At the end, \(process)'s view has no \(id), which its own fetch returns from the store \(store).")
        }
        for id in inView.keys.sorted() {
            let shown = inView[id]!
            guard let candidates = rows[id] else {
                add(id, nil, seen: "\(id) in the view", expected: "no \(id)",
                    "At the end, \(process)'s view still shows \(id), which is not in the store \(store).")
                continue
            }
            func differences(_ stored: ObjectState) -> [String] {
                shown.values.keys.sorted().filter { key in
                    guard let a = shown.values[key], let b = stored.values[key] else { return false }
                    return !a.matches(b)
                }
            }
            let stored = candidates.min { differences($0).count < differences($1).count }!
            let differing = differences(stored)
            guard let first = differing.first else { continue }
            let list = differing.prefix(3).map { "\(id).\($0) = \(shown.values[$0]!) but the store has \(stored.values[$0]!)" }
            add(id, first, seen: "\(shown.values[first]!)", expected: "\(stored.values[first]!)",
                "At the end, \(process)'s view shows \(list.joined(separator: "; "))\(differing.count > 3 ? " (and \(differing.count - 3) more)" : "").")
        }
    }
}
