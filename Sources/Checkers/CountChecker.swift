import Trace

/// Judges every final count (`counted` with `final`) by id, against the list the counting process
/// shows: the objects its own fetches of the entity return from the store (`listed`, read by the
/// process inside the count's interval, with the count's `where:`), not every object of the entity.
///
/// For a count invoked at `a` and completed at `b`:
///   - `missed-insert`: a listed object absent from the view, which settled into the store before `a`
///     and which no commit may have changed between `a` and `b` (so it belonged in the list at `a`);
///   - `stale-read`: a listed object the view holds but whose values, as the view shows them, leave it
///     out of the count's `where:` (the same guard);
///   - `missed-delete`: an object counted whose delete settled before `a`, with no insert after it
///     that the count may have seen;
///   - across stores, when the process fetches every object of the entity: an object alive in another
///     store that never reached this one (a watch with its own store) is a `missed-insert`.
/// A trace without `listed` (older traces, hand-written ones) is judged against every object of the
/// entity alive in the store, and its counts with a `where:` are left to `ExpectationChecker`.
struct CountChecker {
    let context: RunContext
    let oracle: CommitOracle
    /// Steps whose count had a predicate and no `listed`: not judged by id.
    private(set) var predicateSteps: Set<StepKey> = []
    /// Where a count anomaly was found: a failed check of that step is explained by it.
    private(set) var explainedSteps: Set<StepKey> = []
    /// Per store and entity, the objects ever committed there with when each was gone and when its first
    /// commit started, latest gone first: a count walks only those still there at its start and reads the
    /// history only of those that began before it, not of every id of a long run (the oracle is complete
    /// before counts are judged).
    private var byGoneFrom: [ObjectKey: [(gone: UInt64, born: UInt64, id: String, number: Int)]] = [:]
    /// Per store, its objects numbered (made at its first count).
    private var objectsByStore: [String: CountedObjects] = [:]
    /// Per store and entity, the objects of other stores that never reached it (no history there).
    private var neverReached: [ObjectKey: [String]] = [:]

    init(context: RunContext, oracle: CommitOracle) {
        self.context = context
        self.oracle = oracle
    }

    /// Judges `count`, the payload of `event`, whose ids the event numbers (for the latency tracker too).
    mutating func observe(_ count: CountObservation, event: inout JudgedEvent, into anomalies: inout [Anomaly]) {
        let process = event.process, step = event.step, invoked = event.invoked, t = event.t
        guard count.final, let store = context.store(of: process) else { return }
        let stepKey = StepKey(process: process, step: step)
        if count.predicate != nil && count.listed == nil {
            predicateSteps.insert(stepKey)
            return
        }
        let before = anomalies.count
        // The reader's own unsaved deletes and edits are its own doing: never held against the list.
        let own = Set((count.deletedUnsaved ?? []) + (count.edited ?? []))
        let hidden = Set(count.hidden ?? [])
        // Taken out while this count marks its objects, and put back: changed in place, not copied.
        var objects = objectsByStore.removeValue(forKey: store) ?? CountedObjects(store: store, oracle: oracle)
        defer { objectsByStore[store] = objects }
        let countedNumbers = objects.mark(event.numbers(of: count.ids, in: oracle.numbers))
        // Listed but not counted. Most counts show every object listed (the list is the count's own ids),
        // so the sets are built only when they differ; without `listed`, every id the store ever held
        // that existed at `a` is listed.
        var missing: [String] = []
        if let listed = count.listed {
            if listed != count.ids {
                let counted = Set(count.ids)
                for id in Set(listed) where !counted.contains(id) && !own.contains(id) { missing.append(id) }
            }
        } else {
            // An object whose last commit, a delete, was complete before `a` is not listed: skipped
            // without reading its history (most of a long run's ids are such).
            let key = ObjectKey(store: store, object: count.entity)
            if byGoneFrom[key] == nil {
                let ids = oracle.ids(of: count.entity, in: store), goneFrom = oracle.goneFrom(of: count.entity, in: store)
                byGoneFrom[key] = zip(goneFrom, ids).map { gone, id in
                    let number = oracle.numbers.object(id)!
                    return (gone: gone, born: objects.history(number).operations.first?.start ?? .max, id: id, number: number)
                }.sorted { $0.gone > $1.gone }
            }
            for (gone, born, id, number) in byGoneFrom[key]! {
                guard gone >= invoked else { break }
                // An object whose first commit started at or after `invoked` cannot have settled before it.
                if born < invoked, !objects.isMarked(number) && !own.contains(id), objects.history(number).exists(before: invoked) {
                    missing.append(id)
                }
            }
        }
        let subject = count.predicate.map { "\(count.entity) where \($0)" } ?? count.entity
        for id in missing.sorted() {
            guard let history = oracle.history(store: store, object: id), history.exists(before: invoked),
                  !history.mayChange(between: invoked, and: t) else { continue }
            let insert = history.lastInsert(before: invoked) ?? history.settled(before: invoked)!
            if hidden.contains(id) {
                anomalies.append(context.anomaly(
                    .staleRead, process: process, step: step, t: t, object: id,
                    seen: "\(id) left out of \(subject)", expected: "\(id) counted", cause: history.settled(before: invoked)?.reference,
                    explanation: "\(process) counted \(count.ids.count) \(subject) at \(context.at(t)) without \(id): the values its view shows for \(id) do not match, but the committed ones do."))
            } else {
                anomalies.append(context.anomaly(
                    .missedInsert, process: process, step: step, t: t, object: id,
                    seen: "\(count.ids.count) \(subject) without \(id)", expected: "\(id) counted",
                    cause: insert.reference,
                    explanation: "\(process) counted \(count.ids.count) \(subject) at \(context.at(t)) without \(id), which \(insert.writer) inserted at \(context.at(insert.end)) (version \(insert.version)) and nobody deleted\(Self.why(count, process: process))."))
            }
        }
        // Another store was written (the reader's own may never have been: a watch that never synced).
        if oracle.stores.contains(where: { $0 != store }), count.fetchedAll ?? (count.listed == nil) {
            checkNeverReached(count, store: store, counted: Set(count.ids).union(own), process: process, step: step, invoked: invoked, t: t, into: &anomalies)
        }
        // Only ids some commit deleted can be a missed delete (an id never committed to the store was never
        // deleted there). Most such suspects are objects deleted later in the run, alive at this count: they
        // are left out before the rest is sorted, not after.
        let gone = countedNumbers.compactMap { number -> (id: String, state: OperationEntry)? in
            guard objects.wasDeleted(number) else { return nil }
            let history = objects.history(number)
            guard let state = history.settled(before: invoked), state.operation == .delete,
                  !history.mayChange(between: invoked, and: t, where: { $0 == .insert }) else { return nil }
            return (history.id, state)
        }
        for (id, state) in gone.sorted(by: { $0.id < $1.id }) {
            anomalies.append(context.anomaly(
                .missedDelete, process: process, step: step, t: t, object: id,
                seen: "\(id) counted", expected: "\(id) deleted", cause: state.reference,
                explanation: "\(process) counted \(id) among \(count.ids.count) \(subject) at \(context.at(t)), but \(state.writer) deleted it at \(context.at(state.end))."))
        }
        if anomalies.count > before { explainedSteps.insert(stepKey) }
    }

    /// Ids alive in another store that never reached the reader's store (no history there at all):
    /// a watch with its own store counting objects the phone inserted.
    private mutating func checkNeverReached(
        _ count: CountObservation, store: String, counted: Set<String>, process: String,
        step: Int?, invoked: UInt64, t: UInt64, into anomalies: inout [Anomaly]
    ) {
        let key = ObjectKey(store: store, object: count.entity)
        if neverReached[key] == nil {
            var ids: Set<String> = []
            for other in oracle.stores where other != store {
                for id in oracle.ids(of: count.entity, in: other) where oracle.history(store: store, object: id) == nil { ids.insert(id) }
            }
            neverReached[key] = ids.sorted()
        }
        for id in neverReached[key]! where !counted.contains(id) {
            guard let (other, history) = oracle.elsewhere(object: id, notIn: store), history.exists(before: invoked),
                  !history.mayChange(between: invoked, and: t, where: { $0 == .delete }),
                  let insert = history.lastInsert(before: invoked) else { continue }
            anomalies.append(context.anomaly(
                .missedInsert, process: process, step: step, t: t, object: id,
                seen: "\(count.ids.count) \(count.entity) without \(id)", expected: "\(id) counted", cause: insert.reference,
                explanation: "\(process) counted \(count.ids.count) \(count.entity) at \(context.at(t)) without \(id): \(insert.writer) inserted it into \(other) at \(context.at(insert.end)), and it never reached \(store)."))
        }
    }

    /// Why a count left out an object its list should hold: the context is pinned to an older query
    /// generation, or the process's own fetch, run against the store now, returns it.
    private static func why(_ count: CountObservation, process: String) -> String {
        if count.pinned == true {
            return "; \(process)'s context is pinned to a query generation older than that insert, and shows the store as it was then"
        }
        return count.listed == nil ? "" : "; \(process)'s own fetch of \(count.entity) returns it"
    }
}

extension CountChecker: TraceJudge {
    static var sees: EventKinds { .counted }

    /// A count of the live store (one of an opened copy is checked by the copy's verification).
    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        guard case .counted(let count) = event.kind, count.store == nil else { return }
        observe(count, event: &event, into: &findings.anomalies)
    }

    mutating func finish(into findings: inout CheckFindings) {
        findings.explainedSteps.formUnion(explainedSteps)
        findings.predicateSteps.formUnion(predicateSteps)
    }
}
