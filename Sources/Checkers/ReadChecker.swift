import Trace

/// Judges every judged read (`observed` with `final` or `workload`) against the committed history of
/// the store the reader reads: `stale-read`, `phantom-read`, `missed-insert`, `missed-delete`.
///
/// Order comes from intervals, never from a tolerance: a read invoked at `a` and completed at `b` must
/// show at least the newest commit that completed before `a` (before `a - stale-tolerance` for a
/// workload read, the user's setting), and may show any commit that started by `b`. An older committed
/// value is stale; a value never committed is a phantom. Each property is judged alone; `dirty`
/// properties (own unsaved edits) are never judged. Non-final reads of a `within` loop are never judged.
struct ReadChecker {
    let context: RunContext
    let oracle: CommitOracle
    /// What happened to readers between commits and reads, to name an anomaly's cause.
    let causes: CauseIndex
    /// Where a read anomaly was found: a failed check of that step is explained by it.
    private(set) var explainedSteps: Set<StepKey> = []

    /// By process number (`TraceNumbers`): the store the process reads, and where it is among the oracle's
    /// stores (nil when nothing was committed to it).
    private let storeOfProcess: [(name: String, index: Int?)]

    init(context: RunContext, oracle: CommitOracle, causes: CauseIndex) {
        self.context = context
        self.oracle = oracle
        self.causes = causes
        var stores = Array(repeating: (name: "", index: Int?.none), count: oracle.numbers.processes.count)
        for process in context.info.processes {
            stores[oracle.numbers.process(process.name)!] = (process.store, oracle.storeIndex(of: process.store))
        }
        storeOfProcess = stores
    }

    /// Judges `read` by `process` (numbered `number`, nil for a process the header does not name) of the
    /// object numbered `object` (nil for one no commit wrote).
    mutating func observe(
        _ read: Observation, process: String, number: Int?, object: Int?, step: Int?, invoked: UInt64, t: UInt64,
        into anomalies: inout [Anomaly]
    ) {
        // A read that failed (the error is reported as such) showed nothing to judge.
        guard read.final || read.workload, read.source != .error, let number else { return }
        let (store, storeIndex) = storeOfProcess[number]
        let window = ReadWindow(invoked: invoked, t: t, tolerance: read.workload ? context.info.staleToleranceNanos : 0)
        let before = anomalies.count
        var history: ObjectHistory?
        if let object, let storeIndex { history = oracle.history(store: storeIndex, object: object) }
        if !read.found {
            // Gone because the reader deleted it and has not saved: its own edit.
            if read.deletedUnsaved == true { return }
            // Left out of the list by the reader's own fetch (its predicate or limit): not missing.
            if read.listed == false { return }
            if let history {
                checkAbsent(read, history: history, process: process, step: step, window: window, into: &anomalies)
            } else if let (other, history) = elsewhere(object, notIn: store) {
                // Committed to another store and never to this one (a watch with its own store).
                checkAbsent(read, history: history, process: process, step: step, window: window,
                            neverReached: (from: other, to: store), into: &anomalies)
            }
        } else if let history, history.anyStarted(atOrBefore: window.t) {
            checkPresent(read, history: history, store: store, process: process, step: step, window: window, into: &anomalies)
        } else if !isOwnInsert(read, history: history ?? elsewhere(object, notIn: store)?.1, process: process) {
            anomalies.append(context.anomaly(
                .phantomRead, process: process, step: step, t: t, object: read.object,
                seen: "\(read.object) in the view", expected: "no \(read.object) committed to \(store)",
                explanation: "\(process) found \(read.object) in its view at \(context.at(t)), but no process had committed it to \(store)."))
        }
        if anomalies.count > before { explainedSteps.insert(StepKey(process: process, step: step)) }
    }

    /// The object numbered `object` committed to another store than `store` (see `CommitOracle.elsewhere`).
    private func elsewhere(_ object: Int?, notIn store: String) -> (store: String, history: ObjectHistory)? {
        object.flatMap { oracle.elsewhere(object: $0, notIn: store) }
    }

    /// A found object nobody committed is fine when it is the reader's own insert: its values are
    /// unsaved edits, or the reader itself commits it (later, or to a store of its own that no other
    /// process reads: the in-memory store it fell back to).
    private func isOwnInsert(_ read: Observation, history: ObjectHistory?, process: String) -> Bool {
        !read.dirty.isEmpty || history?.firstInsert?.writer == process
    }

    private func checkAbsent(
        _ read: Observation, history: ObjectHistory, process: String, step: Int?, window: ReadWindow,
        neverReached: (from: String, to: String)? = nil, into anomalies: inout [Anomaly]
    ) {
        guard let state = history.settled(before: window.cutoff), state.operation != .delete,
              !history.mayChange(between: window.cutoff, and: window.t, where: { $0 == .delete }) else { return }
        let insert = history.lastInsert(before: window.cutoff) ?? state
        let cause = neverReached == nil
            ? causes.cause(reader: process, object: read.object, writer: insert.writer, committedAt: insert.end, readAt: window.t, source: nil)
            : nil
        anomalies.append(context.anomaly(
            .missedInsert, process: process, step: step, t: window.t, object: read.object,
            seen: "no \(read.object)", expected: "\(read.object) version \(state.version)", cause: insert.reference,
            explanation: neverReached.map {
                "\(process)'s view has no \(read.object) at \(context.at(window.t)): \(insert.writer) inserted it into \($0.from) at \(context.at(insert.end))\(window.toleranceClause), and it never reached \($0.to)."
            } ?? "\(process)'s view has no \(read.object) at \(context.at(window.t)), but \(insert.writer) inserted it at \(context.at(insert.end)) (version \(insert.version))\(window.toleranceClause) and nobody deleted it\(cause.map { "; " + $0 } ?? "")."))
    }

    private func checkPresent(
        _ read: Observation, history: ObjectHistory, store: String, process: String, step: Int?,
        window: ReadWindow, into anomalies: inout [Anomaly]
    ) {
        if history.anyDeleteCompleted(before: window.cutoff), let state = history.settled(before: window.cutoff), state.operation == .delete,
           !history.mayChange(between: window.cutoff, and: window.t, where: { $0 == .insert }) {
            anomalies.append(context.anomaly(
                .missedDelete, process: process, step: step, t: window.t, object: read.object,
                seen: "\(read.object) in the view", expected: "\(read.object) deleted", cause: state.reference,
                explanation: "\(process) still found \(read.object) in its view at \(context.at(window.t)), but \(state.writer) deleted it at \(context.at(state.end))\(window.toleranceClause)."))
            return
        }
        // The hot path of a checker run: no allocation unless something is found.
        var found: [Anomaly] = []
        for (property, value) in read.values where !read.dirty.contains(property) {
            guard let history = history.property(property) else { continue }
            if let anomaly = judge(value, of: property, read: read, history: history, store: store, process: process, step: step, window: window) {
                found.append(anomaly)
            }
        }
        if !found.isEmpty { anomalies += found.sorted { ($0.property ?? "") < ($1.property ?? "") } }
        if read.related != nil { anomalies += judgeRelated(read, history: history, process: process, step: step, window: window) }
    }

    /// Relationships are judged against what the store held throughout the read (`relatedInStore`, read
    /// by the agent just before and after the view and kept only when both agree): a view holding other
    /// objects is stale, with the object's last commit before the read as the likely cause.
    private func judgeRelated(_ read: Observation, history: ObjectHistory, process: String, step: Int?, window: ReadWindow) -> [Anomaly] {
        guard let shown = read.related, let stored = read.relatedInStore else { return [] }
        var anomalies: [Anomaly] = []
        for name in shown.keys.sorted() where !read.dirty.contains(name) {
            guard let held = stored[name], let seen = shown[name], held != seen else { continue }
            let last = history.settled(before: window.t)
            let commit = last.map { " (the last commit to \(read.object) before it was \($0.writer)'s at \(context.at($0.end)), version \($0.version))" } ?? ""
            anomalies.append(context.anomaly(
                .staleRead, process: process, step: step, t: window.t, object: read.object, property: name,
                seen: RelatedText.render(seen), expected: RelatedText.render(held), cause: last?.reference,
                explanation: "\(process) read \(read.object).\(name) = \(RelatedText.render(seen)) at \(context.at(window.t)), but the store "
                    + "held \(RelatedText.render(held)) throughout the read\(commit); the view kept the relationship's contents as it had "
                    + "fetched them."))
        }
        return anomalies
    }

    /// Judges one property's value; nil when it is one the read may show.
    private func judge(
        _ value: TraceValue, of property: String, read: Observation, history: PropertyHistory, store: String,
        process: String, step: Int?, window: ReadWindow
    ) -> Anomaly? {
        let entries = history.entries
        guard let last = entries.lastStarted(atOrBefore: window.t) else { return nil }
        let reference = entries.lastCompleted(before: window.cutoff, after: (last, window.t))
        let first = reference ?? 0
        // By index: a closure over the elements copied each entry (its value and writer retained).
        if first <= last, (first...last).contains(where: { entries[$0].value.matches(value) }) { return nil }
        let name = "\(read.object).\(property)"
        if let reference, history.wasEverCommitted(value),
           let old = entries[..<first].lastIndex(where: { $0.value.matches(value) }) {
            let seen = entries[old]
            let newer = entries[reference]
            let cause = causes.cause(reader: process, object: read.object, writer: newer.writer, committedAt: newer.end,
                                     readAt: window.t, source: read.source)
            return context.anomaly(
                .staleRead, process: process, step: step, t: window.t, object: read.object, property: property,
                seen: "\(value) (version \(seen.version))", expected: "\(newer.value) (version \(newer.version))",
                cause: newer.reference,
                explanation: "\(process) read \(name) = \(value) (version \(seen.version)) at \(context.at(window.t)), but \(newer.writer) committed \(newer.value) at \(context.at(newer.end)) (version \(newer.version))\(window.toleranceClause); \(Self.reason(read))\(cause.map { ": " + $0 } ?? "")."
            )
        }
        let latest = entries[last]
        return context.anomaly(
            .phantomRead, process: process, step: step, t: window.t, object: read.object, property: property,
            seen: "\(value)", expected: "\(latest.value) (version \(latest.version))", cause: latest.reference,
            explanation: "\(process) read \(name) = \(value) at \(context.at(window.t)), a value no process committed to \(store) (the latest committed is \(latest.value), by \(latest.writer) at \(context.at(latest.end)))."
        )
    }

    /// Why a view shows an old value, from where the read's values came.
    static func reason(_ read: Observation) -> String {
        switch read.source {
        case .cache: "the view kept the old row snapshot"
        case .memory: "the object kept the values it already held in memory"
        case .generation: "the context it read through is pinned to an older query generation"
        case .parent: "the child context took what its parent context held"
        case .sql: "the SQL read returned an older row"
        case .error: "the view did not catch up"
        case .rendered: "the control shows what its last reload rendered"
        }
    }
}

/// The span a read is judged over: it must show what settled before `cutoff` and may show what
/// started by `t`.
struct ReadWindow {
    /// When the read was invoked.
    var invoked: UInt64
    /// When the read completed.
    var t: UInt64
    /// The user's `stale-tolerance` for workload reads, 0 otherwise.
    var tolerance: UInt64

    /// Commits that completed before this must be shown.
    var cutoff: UInt64 { invoked > tolerance ? invoked - tolerance : 0 }

    var toleranceClause: String {
        tolerance == 0 ? "" : ", more than the \(DurationText.format(tolerance)) stale tolerance before the read"
    }
}

extension ReadChecker: TraceJudge {
    static var sees: EventKinds { .observed }

    /// A read of the live store (one of an opened copy is checked by the copy's verification).
    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        // Numbered before the read is bound: a change to the event while it is bound would copy it.
        let number = event.number(in: oracle.numbers), object = event.observedObject(in: oracle.numbers)
        guard let read = event.observation, read.store == nil else { return }
        observe(read, process: event.process, number: number, object: object, step: event.step,
                invoked: event.invoked, t: event.t, into: &findings.anomalies)
    }

    mutating func finish(into findings: inout CheckFindings) {
        findings.explainedSteps.formUnion(explainedSteps)
    }
}
