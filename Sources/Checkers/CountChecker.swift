import Trace

/// Judges every final count (`counted` with `final`) against the objects of its entity committed to
/// the reader's store: a committed id missing from the view is a `missed-insert`, a deleted id still in
/// it a `missed-delete`. Counts with a `where:` predicate cannot be judged by id (the predicate is not
/// evaluated here); their failed checks fall back to comparing the numbers (see `ExpectationChecker`).
struct CountChecker {
    private struct EntityKey: Hashable {
        var store: String
        var entity: String
    }

    let context: RunContext
    let oracle: CommitOracle
    /// The ids of each entity alive in each store, as of the events scanned so far.
    private var live: [EntityKey: Set<String>] = [:]
    /// Per entity, in how many stores each id is alive (for objects that never reached a reader's store).
    private var liveAnywhere: [String: [String: Int]] = [:]
    /// Steps whose count had a predicate.
    private(set) var predicateSteps: Set<StepKey> = []
    /// Where a count anomaly was found: a failed check of that step is explained by it.
    private(set) var explainedSteps: Set<StepKey> = []

    init(context: RunContext, oracle: CommitOracle) {
        self.context = context
        self.oracle = oracle
    }

    /// Keeps the live sets current; call for every commit, in time order.
    mutating func didCommit(_ commit: SaveCommit) {
        for object in commit.objects {
            let key = EntityKey(store: commit.store, entity: object.entity)
            if object.operation == .delete {
                if live[key]?.remove(object.id) != nil {
                    liveAnywhere[object.entity, default: [:]][object.id, default: 1] -= 1
                    if liveAnywhere[object.entity]?[object.id] == 0 { liveAnywhere[object.entity]?[object.id] = nil }
                }
            } else if live[key, default: []].insert(object.id).inserted {
                liveAnywhere[object.entity, default: [:]][object.id, default: 0] += 1
            }
        }
    }

    mutating func observe(_ count: CountObservation, process: String, step: Int?, t: UInt64, into anomalies: inout [Anomaly]) {
        guard count.final, let store = context.store(of: process) else { return }
        let stepKey = StepKey(process: process, step: step)
        guard count.predicate == nil else {
            predicateSteps.insert(stepKey)
            return
        }
        let slack = context.options.raceSlackNanos
        let cutoff = t > slack ? t - slack : 0
        let horizon = t &+ slack
        // The reader's own unsaved deletes are its own edits: counted as if still there.
        let counted = Set(count.ids).union(count.deletedUnsaved ?? [])
        let before = anomalies.count
        let alive = live[EntityKey(store: store, entity: count.entity)] ?? []
        let missing = alive.count > counted.count || !alive.isSubset(of: counted) ? alive.subtracting(counted) : []
        for id in missing.sorted() {
            guard let history = oracle.history(store: store, object: id), history.exists(at: cutoff),
                  !history.hasDelete(after: cutoff, upTo: horizon) else { continue }
            let insert = history.lastInsert(atOrBefore: cutoff) ?? history.operation(atOrBefore: cutoff)!
            anomalies.append(context.anomaly(
                .missedInsert, process: process, step: step, t: t, object: id,
                seen: "\(count.ids.count) \(count.entity) without \(id)", expected: "\(id) counted",
                cause: insert.reference,
                explanation: "\(process) counted \(count.ids.count) \(count.entity) at \(context.at(t)) without \(id), which \(insert.writer) inserted at \(context.at(insert.t)) (version \(insert.version)) and nobody deleted."))
        }
        if oracle.stores.count > 1 {
            checkNeverReached(count, store: store, alive: alive, counted: counted, process: process, step: step, t: t, into: &anomalies)
        }
        for id in counted.subtracting(alive).sorted() {
            guard let history = oracle.history(store: store, object: id),
                  let state = history.operation(atOrBefore: cutoff), state.operation == .delete,
                  !history.hasInsert(after: cutoff, upTo: horizon) else { continue }
            anomalies.append(context.anomaly(
                .missedDelete, process: process, step: step, t: t, object: id,
                seen: "\(id) counted", expected: "\(id) deleted", cause: state.reference,
                explanation: "\(process) counted \(id) among \(count.ids.count) \(count.entity) at \(context.at(t)), but \(state.writer) deleted it at \(context.at(state.t))."))
        }
        if anomalies.count > before { explainedSteps.insert(stepKey) }
    }

    /// Ids alive in another store that never reached the reader's store (no history there at all):
    /// a watch with its own store counting objects the phone inserted.
    private func checkNeverReached(
        _ count: CountObservation, store: String, alive: Set<String>, counted: Set<String>, process: String,
        step: Int?, t: UInt64, into anomalies: inout [Anomaly]
    ) {
        let slack = context.options.raceSlackNanos
        let cutoff = t > slack ? t - slack : 0
        let candidates = (liveAnywhere[count.entity] ?? [:]).keys.filter {
            !alive.contains($0) && !counted.contains($0) && oracle.history(store: store, object: $0) == nil
        }
        for id in candidates.sorted() {
            guard let (other, history) = oracle.elsewhere(object: id, notIn: store), history.exists(at: cutoff),
                  !history.hasDelete(after: cutoff, upTo: t &+ slack),
                  let insert = history.lastInsert(atOrBefore: cutoff) else { continue }
            anomalies.append(context.anomaly(
                .missedInsert, process: process, step: step, t: t, object: id,
                seen: "\(count.ids.count) \(count.entity) without \(id)", expected: "\(id) counted", cause: insert.reference,
                explanation: "\(process) counted \(count.ids.count) \(count.entity) at \(context.at(t)) without \(id): \(insert.writer) inserted it into \(other) at \(context.at(insert.t)), and it never reached \(store)."))
        }
    }
}
