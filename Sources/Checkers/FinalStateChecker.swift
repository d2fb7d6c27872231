import Trace

/// Judges the stores and views the run read back: `data-loss` in every store file read (after a crash,
/// a copy just taken, the final store), `duplicate` and `constraint-violation` in each final store, and `not-converged` for each
/// live process's final view against the final state of the store that process reads.
///
/// A file is judged row by row (by primary key) against the operations committed to its store, in
/// commit order: it must hold every row's state as of the last operation that completed before its
/// contents were fixed, unless an operation that may have run meanwhile changed that row. A row at a
/// later version than expected is fine (a process killed after COMMIT and before recording it).
struct FinalStateChecker {
    private struct Snapshot {
        var snapshot: StateSnapshot
        var process: String
        var t: UInt64
    }

    let context: RunContext
    /// The committed operations by row, made when a file is first judged: a trace that judges none (a long
    /// workload without crashes, copies or final stores) never pays for them.
    private var rows: RowOracle?
    private let oracle: CommitOracle
    private var stores: [String: Snapshot] = [:]
    private var storeOrder: [String] = []
    private var views: [Snapshot] = []
    /// Objects a verification already reported missing, per store (not reported twice).
    private var reported: [String: Set<String>] = [:]

    init(context: RunContext, oracle: CommitOracle) {
        self.context = context
        self.oracle = oracle
    }

    mutating func verified(_ record: VerificationRecord, process: String, step: Int?, invoked: UInt64, t: UInt64, into anomalies: inout [Anomaly]) {
        let subject: String
        switch record.reason {
        case .crash: subject = "After a crash, \(record.store)"
        case .killed: subject = "After a process was killed, \(record.store)"
        case .restart: subject = "After a restart, \(record.store)"
        case .copy: subject = "The copy \(record.store)"
        }
        let who = context.store(of: process) == nil ? record.store : process
        if let unreadable = record.unreadable {
            // A file that holds no store loses nothing when nothing had been committed before it was fixed.
            guard !rowOracle().expectations(for: record.source ?? record.store, invoked: invoked, completed: t).isEmpty else { return }
            anomalies.append(context.anomaly(
                .dataLoss, process: who, step: step, t: t, object: record.store, seen: "unreadable", expected: "every committed change",
                explanation: "\(subject) is missing every committed change: \(unreadable)."))
            return
        }
        if let contents = record.contents {
            let found = judge(contents, rows: rowOracle(), source: record.source ?? record.store, invoked: invoked, completed: t,
                              subject: subject, process: who, step: step)
            for anomaly in found { if let object = anomaly.object { reported[record.store, default: []].insert(object) } }
            anomalies += found
            return
        }
        // Traces that predate `contents`: the runner listed what was missing.
        for (index, missing) in record.missing.enumerated() {
            let object = index < record.objects.count ? record.objects[index] : nil
            if let object { reported[record.store, default: []].insert(object) }
            anomalies.append(context.anomaly(
                .dataLoss, process: who, step: step, t: t,
                object: object, seen: "missing", expected: missing,
                explanation: "\(subject) is missing a committed change: \(missing)."))
        }
    }

    mutating func finalStore(_ snapshot: StateSnapshot, process: String, t: UInt64) {
        if stores[snapshot.store] == nil { storeOrder.append(snapshot.store) }
        stores[snapshot.store] = Snapshot(snapshot: snapshot, process: process, t: t)
    }

    /// A process's view; a later one replaces it (a widget records what each reload rendered, and the
    /// last is what it shows at the end).
    mutating func finalView(_ snapshot: StateSnapshot, process: String, t: UInt64) {
        views.removeAll { $0.process == process }
        views.append(Snapshot(snapshot: snapshot, process: process, t: t))
    }

    mutating func judgeEnd(into anomalies: inout [Anomaly]) {
        for store in storeOrder {
            let final = stores[store]!
            checkDuplicates(final, oracle: oracle, into: &anomalies)
            checkConstraints(final, into: &anomalies)
            let already = reported[store] ?? []
            anomalies += judge(final.snapshot, rows: rowOracle(), source: store, invoked: final.t, completed: final.t,
                               subject: "The final store \(store)", process: store, step: nil)
                .filter { !already.contains($0.object ?? "") }
        }
        for view in views {
            // A view read from a copy (`open-copy`) shows the copy, not the live store.
            guard !view.snapshot.store.hasPrefix("copy"),
                  let store = context.store(of: view.process), let final = stores[store] else { continue }
            checkConvergence(view, against: final, into: &anomalies)
        }
    }

    /// The data-loss anomalies of a file fixed during `invoked...completed` that must hold `source`'s commits.
    /// The committed operations by row, made at the first call.
    private mutating func rowOracle() -> RowOracle {
        if let rows { return rows }
        let made = RowOracle(oracle)
        rows = made
        return made
    }

    private func judge(
        _ contents: StateSnapshot, rows: RowOracle, source: String, invoked: UInt64, completed: UInt64, subject: String,
        process: String, step: Int?
    ) -> [Anomaly] {
        var present: [RowKey: [ObjectState]] = [:]
        for object in contents.objects {
            present[RowKey(store: source, entity: object.entity, pk: object.pk, id: object.id), default: []].append(object)
        }
        var anomalies: [Anomaly] = []
        func add(_ expectation: RowExpectation, property: String? = nil, seen: String, expected: String,
                 cause: RowOperation, _ sentence: String) {
            anomalies.append(context.anomaly(
                .dataLoss, process: process, step: step, t: completed, object: expectation.last.id, property: property,
                seen: seen, expected: expected, cause: cause.reference, explanation: "\(subject) \(sentence)."))
        }
        for expectation in rows.expectations(for: source, invoked: invoked, completed: completed) {
            let last = expectation.last, id = last.id, found = present[expectation.key] ?? []
            if last.operation == .delete {
                if let row = found.first {
                    add(expectation, seen: "\(id) version \(row.version.map(String.init) ?? "?")", expected: "\(id) deleted", cause: last,
                        "still has \(id), though \(last.writer) deleted it at \(context.at(last.end))")
                }
                continue
            }
            guard !found.isEmpty else {
                add(expectation, seen: "missing", expected: "\(id) version \(last.version)", cause: last,
                    "has no \(id), though \(last.writer) committed it at \(context.at(last.end)) (version \(last.version)) and nobody deleted it")
                continue
            }
            // A row at a later version than the trace knows holds a commit the trace never recorded.
            guard !found.contains(where: { ($0.version ?? 0) > last.version }) else { continue }
            var differing = false
            for property in expectation.latest.keys.sorted() {
                let newest = expectation.latest[property]!
                guard let value = newest.values[property],
                      !found.contains(where: { $0.values[property].map { $0.matches(value) } ?? true }),
                      let shown = found.first?.values[property] else { continue }
                differing = true
                add(expectation, property: property, seen: "\(shown)", expected: "\(value) (version \(newest.version))", cause: newest,
                    "has \(id).\(property) = \(shown), but the latest committed value is \(value), by \(newest.writer) at \(context.at(newest.end)) (version \(newest.version))")
            }
            if !differing, let version = found.compactMap(\.version).max(), version < last.version {
                add(expectation, seen: "\(id) version \(version)", expected: "\(id) version \(last.version)", cause: last,
                    "has \(id) at version \(version), though \(last.writer) committed version \(last.version) at \(context.at(last.end))")
            }
        }
        return anomalies
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

    /// Rows of the final store that hold one constrained value (all of a constraint's attributes non-nil and
    /// equal) among the rows the constraint covers: its declaring entity's and its sub-entities'. Core Data's
    /// unique index forbids them; a store that started that way (`from:` a file without the index) keeps them.
    private func checkConstraints(_ final: Snapshot, into anomalies: inout [Anomaly]) {
        guard let declared = context.info.uniquenessConstraints else { return }
        let store = final.snapshot.store
        for entity in declared.keys.sorted() {
            for names in declared[entity]! {
                var holders: [[TraceValue]: [String]] = [:]
                var order: [[TraceValue]] = []
                for object in final.snapshot.objects where context.info.entity(object.entity, isKindOf: entity) {
                    let values = names.map { object.values[$0] ?? .null }
                    guard !values.contains(.null) else { continue }
                    if holders[values] == nil { order.append(values) }
                    if holders[values]?.contains(object.id) != true { holders[values, default: []].append(object.id) }
                }
                for values in order {
                    let ids = holders[values]!
                    guard ids.count > 1 else { continue }
                    let held = zip(names, values).map { "\($0) = \($1)" }.joined(separator: ", ")
                    anomalies.append(context.anomaly(
                        .constraintViolation, process: store, step: nil, t: final.t, object: ids[0],
                        seen: "\(ids.count) rows", expected: "1",
                        explanation: "\(ids.joined(separator: ", ")) all hold \(held) in the final store \(store), which the "
                            + "uniqueness constraint [\(names.joined(separator: ", "))] of \(entity) allows to one row."))
                }
            }
        }
    }

    private func checkConvergence(_ view: Snapshot, against final: Snapshot, into anomalies: inout [Anomaly]) {
        let process = view.process, store = final.snapshot.store
        // A widget shows what its last reload rendered: say when that was.
        let role = context.info.processes.first { $0.name == process }?.role
        let rendered = role.map { $0.isRenderedBySystem
            ? " (a \($0.traits.name) shows what its last reload rendered, at \(context.at(view.t)))" : "" } ?? ""
        // One id may name several rows (a duplicate): the view's object is compared with the closest.
        var rows: [String: [ObjectState]] = [:]
        var byRow: [RowRef: ObjectState] = [:]
        for object in final.snapshot.objects {
            rows[object.id, default: []].append(object)
            if let pk = object.pk { byRow[RowRef(entity: object.entity, pk: pk)] = object }
        }
        var inView: [String: ObjectState] = [:]
        for object in view.snapshot.objects where inView[object.id] == nil { inView[object.id] = object }
        // A view holds what its fetches returned: the objects it lacks are those its own fetches would
        // return now (`absent`, recorded by the process itself after its final refresh).
        func add(_ object: String, _ property: String?, seen: String, expected: String, _ explanation: String) {
            anomalies.append(context.anomaly(
                .notConverged, process: process, step: nil, t: view.t, object: object, property: property,
                seen: seen, expected: expected, explanation: explanation))
        }
        var absent = Set(view.snapshot.absent)
        // A widget's view was recorded when its last reload rendered it: what its fetches of every object
        // of an entity would return from the store at the end, and it does not show, came after.
        if role?.isRenderedBySystem == true, let entities = view.snapshot.fetchedAll.map(Set.init) {
            let shownRows = Set(view.snapshot.objects.compactMap { object in object.pk.map { RowRef(entity: object.entity, pk: $0) } })
            for object in final.snapshot.objects where inView[object.id] == nil && !absent.contains(object.id)
                && !(object.pk.map { shownRows.contains(RowRef(entity: object.entity, pk: $0)) } ?? false)
                && entities.contains(where: { context.info.entity(object.entity, isKindOf: $0) }) {
                absent.insert(object.id)
            }
        }
        for id in absent.sorted() where inView[id] == nil {
            add(id, nil, seen: "no \(id)", expected: "\(id) in the view",
                "At the end, \(process)'s view has no \(id), which its own fetch returns from the store \(store)\(rendered).")
        }
        for id in inView.keys.sorted() {
            let shown = inView[id]!
            // A view names a row by what its process knows (another process's insert of a duplicate id
            // is `Entity#pk` to it): the row with the same primary key is the one to compare.
            let sameRow = shown.pk.flatMap { byRow[RowRef(entity: shown.entity, pk: $0)] }
            guard let candidates = sameRow.map({ [$0] }) ?? rows[id] else {
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
                "At the end, \(process)'s view shows \(list.joined(separator: "; "))\(differing.count > 3 ? " (and \(differing.count - 3) more)" : "")\(rendered).")
        }
    }
}

/// A row of a store by entity and primary key.
private struct RowRef: Hashable {
    let entity: String
    let pk: Int64
}

extension FinalStateChecker: TraceJudge {
    static var sees: EventKinds { [.verified, .finalStore, .finalView] }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        switch event.kind {
        case .verified(let record):
            verified(record, process: event.process, step: event.step, invoked: event.invoked, t: event.t, into: &findings.anomalies)
        case .finalStore(let snapshot): finalStore(snapshot, process: event.process, t: event.t)
        case .finalView(let snapshot): finalView(snapshot, process: event.process, t: event.t)
        default: break
        }
    }

    mutating func finish(into findings: inout CheckFindings) {
        judgeEnd(into: &findings.anomalies)
    }
}
