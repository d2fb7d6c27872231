import Basics
import Trace

/// Checks a run's trace against the contract: every anomaly, the verdict, change-propagation latency.
///
/// ```swift
/// let result = TraceChecker.check(trace)
/// result.verdict.matched        // false
/// result.anomalies.first?.explanation
/// // app read n1.title = "A" (version 1) at 412 ms, but share committed "B" at 230 ms (version 2); the view kept the old row snapshot.
/// ```
///
/// Pure and linear in the number of events: a first pass builds the committed history of every
/// (store, object, property) and judges each save for lost updates as it is applied; a second pass
/// hands each event to the judges (`TraceJudge`) of its kind, which judge every read, count, error and
/// lifecycle change against that history (binary searches by time) and follow each save to its
/// readers; the judges finish in order, the end states judged last. On a long trace the latency
/// tracker, and the later part of the reads, see their events on threads of their own (`ApartJudge`),
/// beside the oracle's making and the other judges; the result is the same either way.
public enum TraceChecker {
    public static func check(_ trace: RunTrace) -> CheckResult {
        check(trace, apartFrom: apartFrom).result
    }

    /// From how many events some judges see their events on threads of their own (the latency tracker, the
    /// later reads): below it, making the threads costs more than they save.
    static let apartFrom = 50_000

    /// On a long trace, the percentage of events whose reads are judged in line: the rest are judged on
    /// a thread of their own, beside them. The latency tracker's thread is done after about the time this
    /// thread takes for the oracle and the first part (`groupsim bench checkers`: with 60, the two threads
    /// end together; with 50, this one waits).
    static let inLineReads = 60

    /// `check`, with judges apart from `apartFrom` events, and how many judges did see their events on a
    /// thread of their own (a test checks one trace both ways and compares the results).
    static func check(_ trace: RunTrace, apartFrom: Int) -> (result: CheckResult, judgedApart: Int) {
        let origin = trace.events.first?.t ?? 0
        let context = RunContext(info: trace.info, origin: origin)
        var anomalies: [Anomaly] = []

        // Pass 1: the oracle, in each store's commit order, judging lost updates as it grows.
        var commits: [CommitEvent] = []
        var causes = CauseIndex(context: context)
        var numbers = TraceNumbers(processes: trace.info.processes)
        // A control's reads are what its reloads rendered: a tap's stale value is explained by them.
        let controls = Set(trace.info.processes.filter { $0.role.traits.display == .value }.map(\.name))
        // Events are read in place, through the array's buffer: a copy of each (its payload's strings,
        // values and lists retained and released again) cost a long run's checking more than most judgments.
        let events = trace.events
        events.withUnsafeBufferPointer { events in
            // Room made at once: grown by doubling, the large commits were moved again and again.
            var saves = 0
            for index in events.indices { if case .saveCommitted = events[index].kind { saves += 1 } }
            commits.reserveCapacity(saves)
            for index in events.indices {
                switch events[index].kind {
                case .saveCommitted(let commit):
                    for object in commit.objects { numbers.add(object: object.id) }
                    commits.append(CommitEvent(
                        commit: commit, writer: events[index].process, step: events[index].step,
                        start: events[index].invokedAt, end: events[index].t, index: index))
                case .notificationRouted(let record, let decision):
                    causes.routed(record, decision: decision, t: events[index].t)
                case .refreshStarted(let refresh):
                    causes.refreshStarted(refresh, by: events[index].process, t: events[index].t)
                case .observed(let observation) where !controls.isEmpty && observation.source != .rendered
                    && controls.contains(events[index].process):
                    causes.rendered(observation.object, by: events[index].process, t: events[index].t)
                default:
                    break
                }
            }
        }
        let commitCount = commits.count
        let end = trace.events.last?.t ?? origin
        let lastEvents = lastEvents(of: trace.info.processes, in: events)
        // On a long trace, judges see their events on other threads as soon as what they judge against is
        // ready (`ApartJudge`): the latency tracker needs only what pass 1 numbered, so it starts now.
        let apart = events.count >= apartFrom
        let tracker = JudgeBox(LatencyTracker(context: context, numbers: numbers, commits: commitCount))
        let latency = !apart ? tracker : ApartJudge(
            tracker, events: events, range: events.indices, end: end, lastEvents: lastEvents,
            merge: { $0.latency = $1.latency })
        var oracle = CommitOracle(numbers: numbers, ordered: CommitOracle.order(consume commits))
        oracle.kinds = { entity, ancestor in context.info.entity(entity, isKindOf: ancestor) }
        oracle.hasInheritance = context.info.entityParents != nil
        let lostUpdates = LostUpdateChecker(context: context)
        for position in oracle.ordered.indices {
            lostUpdates.willCommit(oracle.ordered[position], oracle: oracle, into: &anomalies)
            oracle.apply(position)
        }

        // Pass 2: every judge sees the events of its kinds, in trace order, then finishes, in order. On a long
        // trace the reads after `split` are judged apart, beside the ones before it.
        let split = apart ? events.count / 100 * inLineReads : events.count
        let reads = JudgeBox(ReadChecker(context: context, oracle: oracle, causes: causes))
        let laterReads = split == events.count ? nil : ApartJudge(
            JudgeBox(ReadChecker(context: context, oracle: oracle, causes: causes)), events: events,
            range: split..<events.count, end: end, lastEvents: lastEvents,
            merge: { $0.anomalies += $1.anomalies; $0.explainedSteps.formUnion($1.explainedSteps) })
        let judges = Self.judges(context, oracle: oracle, causes: causes, reads: [reads] + (laterReads.map { [$0] } ?? []),
                                 latency: latency)
        var findings = CheckFindings(anomalies: anomalies, end: end, lastEvents: lastEvents)
        judge(events, 0..<split, by: judges, into: &findings)
        judge(events, split..<events.count, by: judges.filter { $0 !== reads }, into: &findings)
        for judge in judges { judge.finish(into: &findings) }

        var result = CheckResult(
            info: trace.info, origin: origin, end: end, anomalies: ordered(findings.anomalies), latency: findings.latency,
            refreshCosts: findings.refreshCosts, unexpectedErrors: findings.unexpectedErrors, eventCount: trace.events.count)
        result.warnings = findings.warnings
        result.growth = findings.growth
        // The trace stops where the harness failed: what it shows is no verdict.
        if let failure = findings.harnessFailure { result.undecided(by: failure) }
        return (result, judges.count { ($0 as? ApartJudge)?.isApart == true })
    }

    /// The judges of the second pass, in the order they finish: the read and count checkers say which
    /// failed checks their anomalies explain before the expectation checker classifies the rest, the
    /// latency tracker makes its report before the budget is held against it. A new checker is one line.
    private static func judges(_ context: RunContext, oracle: CommitOracle, causes: CauseIndex, reads: [AnyJudge],
                               latency: AnyJudge) -> [AnyJudge] {
        reads + [
            JudgeBox(CountChecker(context: context, oracle: oracle)),
            latency,
            JudgeBox(RefreshCostMeter()),
            JudgeBox(ErrorChecker(context: context)),
            JudgeBox(LifecycleChecker(context: context)),
            JudgeBox(FinalStateChecker(context: context, oracle: oracle)),
            JudgeBox(ExpectationChecker(context: context)),
            JudgeBox(GrowthChecker(context: context)),
            JudgeBox(HarnessNotes()),
            JudgeBox(LatencyBudgetChecker(context: context)),
        ]
    }

    /// Hands each event to the judges that see its kind, in their order. The judges are called without
    /// retaining them (the array holds them for the whole pass): a retain and release each per event cost
    /// more than the calls.
    static func judge(_ events: [TraceEvent], _ range: Range<Int>, by judges: [AnyJudge], into findings: inout CheckFindings) {
        let seen = judges.map { (sees: $0.sees, judge: Unmanaged.passUnretained($0)) }
        withExtendedLifetime(judges) {
            events.withUnsafeBufferPointer { buffer in
                for index in range {
                    let kind = EventKinds(buffer[index].kind)
                    guard kind != .unjudged else { continue }
                    var event = JudgedEvent(buffer, index: index, kinds: kind)
                    for (sees, judge) in seen where sees.contains(kind) {
                        judge._withUnsafeGuaranteedRef { $0.see(&event, into: &findings) }
                    }
                }
            }
        }
    }

    /// When each process of the header was last heard from (the `t` of its last event). Found from the end,
    /// where every process that ran recorded something, rather than by a lookup of every event's process.
    private static func lastEvents(of processes: [TraceProcess], in events: [TraceEvent]) -> [String: UInt64] {
        var last: [String: UInt64] = [:]
        var unheard = processes.map(\.name)
        var index = events.endIndex
        while !unheard.isEmpty && index > events.startIndex {
            index -= 1
            let process = events[index].process
            guard unheard.contains(process) else { continue }
            last[process] = events[index].t
            unheard.removeAll { $0 == process }
        }
        return last
    }

    /// Time order; ties by kind, process, object, property, so reports are deterministic; then, between
    /// two anomalies of the reads (which a long trace's other thread may find), by what they say, so the
    /// thread that found one changes nothing; else in the order found (a budget's percentiles, low to high).
    private static func ordered(_ anomalies: [Anomaly]) -> [Anomaly] {
        anomalies.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.t != y.t { return x.t < y.t }
            if x.kind != y.kind { return x.kind < y.kind }
            if x.process != y.process { return x.process < y.process }
            if (x.object ?? "") != (y.object ?? "") { return (x.object ?? "") < (y.object ?? "") }
            if (x.property ?? "") != (y.property ?? "") { return (x.property ?? "") < (y.property ?? "") }
            if readKinds.contains(x.kind), let order = sayingOrder(x, y) { return order }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// What the read checker (and the count checker) find.
    private static let readKinds: Set<AnomalyKind> = [.staleRead, .phantomRead, .missedInsert, .missedDelete]

    /// Whether `x` comes before `y` by what they say, nil when they say the same.
    private static func sayingOrder(_ x: Anomaly, _ y: Anomaly) -> Bool? {
        if (x.step ?? -1) != (y.step ?? -1) { return (x.step ?? -1) < (y.step ?? -1) }
        if x.explanation != y.explanation { return x.explanation < y.explanation }
        if (x.seen ?? "") != (y.seen ?? "") { return (x.seen ?? "") < (y.seen ?? "") }
        if (x.expected ?? "") != (y.expected ?? "") { return (x.expected ?? "") < (y.expected ?? "") }
        if (x.location ?? "") != (y.location ?? "") { return (x.location ?? "") < (y.location ?? "") }
        guard let c = x.cause, let d = y.cause else { return x.cause == nil && y.cause == nil ? nil : x.cause == nil }
        if c.t != d.t { return c.t < d.t }
        if c.version != d.version { return c.version < d.version }
        if c.process != d.process { return c.process < d.process }
        if (c.step ?? -1) != (d.step ?? -1) { return (c.step ?? -1) < (d.step ?? -1) }
        return nil
    }
}
