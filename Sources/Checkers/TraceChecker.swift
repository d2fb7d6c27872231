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
/// judges every read, count, error and lifecycle change against that history (binary searches by
/// time), follows each save to its readers, and the end states are judged last.
public enum TraceChecker {
    public static func check(_ trace: RunTrace) -> CheckResult {
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
        var oracle = CommitOracle(numbers: numbers, ordered: CommitOracle.order(consume commits))
        oracle.kinds = { entity, ancestor in context.info.entity(entity, isKindOf: ancestor) }
        oracle.hasInheritance = context.info.entityParents != nil
        let lostUpdates = LostUpdateChecker(context: context)
        for position in oracle.ordered.indices {
            lostUpdates.willCommit(oracle.ordered[position], oracle: oracle, into: &anomalies)
            oracle.apply(position)
        }

        // Pass 2: everything judged against the oracle.
        var reads = ReadChecker(context: context, oracle: oracle, causes: causes)
        var counts = CountChecker(context: context, oracle: oracle)
        var errors = ErrorChecker(context: context)
        var expectations = ExpectationChecker(context: context)
        var finals = FinalStateChecker(context: context, oracle: oracle)
        var latency = LatencyTracker(context: context, numbers: numbers, commits: commitCount)
        var refreshes = RefreshCostMeter()
        var warnings: [String] = []
        var growths: [StoreGrowth] = []
        var harnessFailure: HarnessFailure?
        events.withUnsafeBufferPointer { events in
            for index in events.indices {
                let process = events[index].process, step = events[index].step, t = events[index].t
                let invoked = events[index].invokedAt
                switch events[index].kind {
                case .saveCommitted(let commit):
                    latency.commit(commit, writer: process, step: step, t: t)
                case .observed(let read) where read.store == nil:
                    // Numbered once here, for both.
                    let number = numbers.process(process), object = numbers.object(read.object)
                    reads.observe(read, process: process, number: number, object: object, step: step, invoked: invoked, t: t,
                                  into: &anomalies)
                    latency.observed(read, by: number, object: object, invoked: invoked, t: t)
                case .counted(let count) where count.store == nil:
                    // Its ids numbered once, for both.
                    var ids = CountedIDs(count.ids, numbers: numbers)
                    counts.observe(count, numbered: &ids, process: process, step: step, invoked: invoked, t: t, into: &anomalies)
                    latency.counted(count, numbered: &ids, by: numbers.process(process), invoked: invoked, t: t)
                case .observed, .counted:
                    // Read from an opened copy: the copy is checked by its verification, not against
                    // the live store's history; a failed check there is still an unmet expectation.
                    break
                case .check(let record):
                    expectations.check(record, process: process, step: step, t: t)
                case .notificationReceived(let notification):
                    latency.notificationReceived(by: numbers.process(process), t: t, postedAt: notification.postedAt)
                case .refreshStarted:
                    latency.refreshStarted(by: numbers.process(process), t: t)
                    refreshes.started(process, t: t)
                case .refreshEnded(let refresh):
                    latency.refreshEnded(refresh, by: numbers.process(process), t: t)
                    refreshes.ended(process, t: t)
                case .conflict(let record):
                    errors.conflict(record, process: process)
                case .saveFailed(let record):
                    errors.saveFailed(record, process: process, step: step, t: t)
                case .error(let record):
                    errors.error(record, process: process, step: step, t: t)
                case .historyFetched(let fetch):
                    errors.historyFetched(fetch, process: process, step: step, t: t)
                case .stepEnded(let record):
                    errors.stepEnded(record, process: process, step: step, t: t, into: &anomalies)
                case .lifecycle(let change):
                    latency.lifecycle(change.state, of: numbers.process(process))
                    if let anomaly = LifecycleChecker.check(change, process: process, step: step, t: t, context: context) {
                        anomalies.append(anomaly)
                    }
                    for object in change.unsaved ?? [] { expectations.lost(object, at: t) }
                case .verified(let record):
                    finals.verified(record, process: process, step: step, invoked: invoked, t: t, into: &anomalies)
                case .finalStore(let snapshot):
                    finals.finalStore(snapshot, process: process, t: t)
                case .finalView(let snapshot):
                    finals.finalView(snapshot, process: process, t: t)
                case .storeGrowth(let growth):
                    growths.append(growth)
                    anomalies += GrowthChecker.check(growth, limits: trace.info.growthLimits, step: step, t: t, context: context)
                case .warning(let text):
                    warnings.append("\(process): \(text)")
                case .harnessFailed(let failure):
                    harnessFailure = harnessFailure ?? failure
                case .runStarted, .stepStarted, .notificationPosted, .notificationRouted, .purged, .sqlRead,
                     .faultFulfilled, .snapshotDropped, .note:
                    break
                }
            }
        }

        // The end: what was gathered, the final states, the budget.
        let end = trace.events.last?.t ?? origin
        errors.finish(into: &anomalies)
        finals.finish(oracle: oracle, into: &anomalies)
        expectations.finish(
            explained: reads.explainedSteps.union(counts.explainedSteps), predicateSteps: counts.predicateSteps,
            into: &anomalies)
        let report = latency.finish(lastEvent: lastEvents(of: trace.info.processes, in: events))
        anomalies += LatencyBudgetChecker.check(report, budget: trace.info.latencyBudget, t: end, context: context)

        var result = CheckResult(
            info: trace.info, origin: origin, end: end, anomalies: ordered(anomalies), latency: report,
            refreshCosts: refreshes.result, unexpectedErrors: errors.unexpected, eventCount: trace.events.count)
        result.warnings = warnings
        result.growth = growths
        // The trace stops where the harness failed: what it shows is no verdict.
        if let harnessFailure { result.undecided(by: harnessFailure) }
        return result
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

    /// Time order; ties by kind, process, object, property, so reports are deterministic.
    private static func ordered(_ anomalies: [Anomaly]) -> [Anomaly] {
        anomalies.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.t != y.t { return x.t < y.t }
            if x.kind != y.kind { return x.kind < y.kind }
            if x.process != y.process { return x.process < y.process }
            if (x.object ?? "") != (y.object ?? "") { return (x.object ?? "") < (y.object ?? "") }
            if (x.property ?? "") != (y.property ?? "") { return (x.property ?? "") < (y.property ?? "") }
            return a.offset < b.offset
        }.map(\.element)
    }
}
