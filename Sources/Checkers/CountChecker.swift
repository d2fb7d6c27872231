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
                live[key]?.remove(object.id)
            } else {
                live[key, default: []].insert(object.id)
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
        let counted = Set(count.ids)
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
}
