import Basics
import Trace

/// Writes a trace by hand, the way a scenario would have produced it: for tests, benchmarks and
/// sample reports (a test double shipped with the library it doubles for).
///
/// ```swift
/// var script = TraceScript(processes: [("app", "host"), ("share", "share")], expected: .anomalies(["stale-read"]))
/// script.at(ms: 10)
/// script.step("share", "share: save", line: 12)
/// script.commit("share", [.init(id: "n1", entity: "Note", operation: .update, version: 2, baseVersion: 1, values: ["title": .string("B")], changed: ["title"])])
/// script.at(ms: 40)
/// script.step("app", "app: read n1 expect {title: B}", line: 13)
/// script.read("app", "n1", ["title": .string("A")], version: 1, source: "cache")
/// let trace = script.trace
/// ```
///
/// Time is in milliseconds from the run's start (`at(ms:)` moves it, never backwards); the script opens
/// with a runner note at the start, so reports measure from it. Each process's events carry the step it
/// started last.
public struct TraceScript: Sendable {
    /// The run's header; edit it freely (variant, expected outcome, budget, tolerance).
    public var info: RunInfo
    public private(set) var events: [TraceEvent] = []
    /// The monotonic time of the run's start: events are stamped `start + ms`.
    public let start: UInt64
    /// The current time (ns, monotonic).
    public private(set) var now: UInt64
    private var currentStep: [String: Int] = [:]

    /// A run of `processes` (name, role) reading `store` unless given as `own:` stores in `stores`.
    public init(
        processes: [(name: String, role: ProcessRole)],
        scenario: String = "sample", variant: String = "default", file: String = "Scenarios/sample.yaml",
        summary: String = "A hand-written trace.", seed: UInt64 = 1, expected: Expectation = .pass,
        store: String = "group:group.example.notes",
        stores: [String: String] = [:], settings: [String: [String: String]] = [:], start: UInt64 = 1_000_000_000
    ) {
        info = RunInfo(
            scenario: scenario, variant: variant, file: file, summary: summary, seed: seed, expected: expected,
            processes: processes.map {
                TraceProcess(name: $0.name, role: $0.role, store: stores[$0.name] ?? store, settings: settings[$0.name] ?? [:])
            },
            steps: [])
        self.start = start
        now = start
        // The run's first event fixes the origin reports measure from.
        record("runner", .note("run started"))
    }

    /// The finished trace.
    public var trace: RunTrace { RunTrace(info: info, events: events) }

    /// Moves the clock to `ms` milliseconds after the start (never backwards).
    public mutating func at(ms: Double) {
        let t = start + UInt64((ms * 1_000_000).rounded())
        precondition(t >= now, "TraceScript time must not go backwards (\(ms) ms)")
        now = t
    }

    /// Moves the clock forward by `ns` nanoseconds.
    public mutating func advance(nanos: UInt64) { now += nanos }

    /// Adds a step to the header and starts it on `process` (or on the runner for control steps);
    /// returns its index.
    @discardableResult
    public mutating func step(_ process: String?, _ text: String, line: Int, column: Int = 5) -> Int {
        let index = info.steps.count
        info.steps.append(StepInfo(
            index: index, process: process, location: SourceLocation(file: info.file, line: line, column: column), text: text))
        let owner = process ?? "runner"
        currentStep[owner] = index
        record(owner, .stepStarted)
        return index
    }

    /// Ends `process`'s current step, with the error it ended with.
    public mutating func endStep(_ process: String, error: ErrorRecord? = nil) {
        record(process, .stepEnded(error))
    }

    /// Makes `step` the current step of `process` without recording a start (a workload's reads).
    public mutating func use(step: Int, for process: String) { currentStep[process] = step }

    /// Records any event for `process` at the current time, stamped with its current step; an operation
    /// with a duration gives when it was invoked, `sinceMs` milliseconds after the start (at most now).
    public mutating func record(_ process: String, _ kind: TraceEventKind, sinceMs: Double? = nil) {
        let start = sinceMs.map { Swift.min(now, self.start + UInt64(($0 * 1_000_000).rounded())) }
        events.append(TraceEvent(t: now, start: start, process: process, step: currentStep[process], kind: kind))
    }

    /// The store `process` reads.
    public func store(of process: String) -> String {
        info.processes.first { $0.name == process }?.store ?? "group:group.example.notes"
    }

    // MARK: Conveniences for the common events

    public mutating func lifecycle(_ process: String, _ state: LifecycleState, holdsLock: Bool? = nil, lock: LockKind? = nil) {
        record(process, .lifecycle(LifecycleChange(state: state, holdsLock: holdsLock, lock: lock)))
    }

    /// A committed save to `process`'s store (or `store`); `sinceMs` is when its COMMIT began.
    public mutating func commit(_ process: String, _ objects: [CommittedObject], store: String? = nil, conflictResolved: Bool = false, sinceMs: Double? = nil) {
        record(process, .saveCommitted(SaveCommit(
            store: store ?? self.store(of: process), objects: objects, conflictResolved: conflictResolved)), sinceMs: sinceMs)
    }

    /// A committed insert of one object.
    public mutating func insert(_ process: String, _ id: String, entity: String = "Note", _ values: TraceValues, version: Int64 = 1, sinceMs: Double? = nil) {
        commit(process, [CommittedObject(id: id, entity: entity, operation: .insert, version: version, values: values, changed: values.keys.sorted())], sinceMs: sinceMs)
    }

    /// A committed update of one object, based on `version - 1` unless told.
    public mutating func update(
        _ process: String, _ id: String, entity: String = "Note", _ values: TraceValues, version: Int64,
        baseVersion: Int64? = nil, changed: [String]? = nil, conflictResolved: Bool = false, sinceMs: Double? = nil
    ) {
        commit(process, [CommittedObject(
            id: id, entity: entity, operation: .update, version: version, baseVersion: baseVersion ?? version - 1,
            values: values, changed: changed ?? values.keys.sorted())], conflictResolved: conflictResolved, sinceMs: sinceMs)
    }

    /// A committed delete of one object.
    public mutating func delete(_ process: String, _ id: String, entity: String = "Note", version: Int64, sinceMs: Double? = nil) {
        commit(process, [CommittedObject(id: id, entity: entity, operation: .delete, version: version, baseVersion: version - 1)], sinceMs: sinceMs)
    }

    /// A read of `object` from `process`'s view; `sinceMs` is when it was invoked (now when nil).
    public mutating func read(
        _ process: String, _ object: String, _ values: TraceValues = [:], found: Bool = true, version: Int64? = nil,
        dirty: [String] = [], source: ReadSource = .memory, final: Bool = true, workload: Bool = false, sinceMs: Double? = nil
    ) {
        record(process, .observed(Observation(
            object: object, found: found, values: values, version: version, dirty: dirty, source: source,
            final: final, workload: workload)), sinceMs: sinceMs)
    }

    /// A count of `entity` in `process`'s view; `listed` is what the process's own fetches return from
    /// the store (nil: judged against every object of the entity), `hidden` what the view's values filter out.
    public mutating func count(
        _ process: String, _ entity: String = "Note", ids: [String], predicate: String? = nil, final: Bool = true,
        listed: [String]? = nil, fetchedAll: Bool? = nil, hidden: [String]? = nil, sinceMs: Double? = nil
    ) {
        record(process, .counted(CountObservation(
            entity: entity, predicate: predicate, ids: ids, final: final, listed: listed, fetchedAll: fetchedAll,
            hidden: hidden)), sinceMs: sinceMs)
    }

    /// The outcome of a read check.
    public mutating func checkRead(_ process: String, _ object: String, expected: TraceValues, actual: TraceValues, withinMs: Double = 0) {
        let passed = expected.allSatisfy { key, value in actual[key].map { $0.matches(value) } ?? false }
        record(process, .check(CheckRecord(
            kind: .read, subject: object, expected: expected, actual: actual, passed: passed,
            withinNanos: UInt64(withinMs * 1_000_000))))
    }

    /// The outcome of a count check.
    public mutating func checkCount(_ process: String, _ entity: String = "Note", expected: Int, actual: Int, withinMs: Double = 0) {
        record(process, .check(CheckRecord(
            kind: .count, subject: entity, expectedCount: expected, actualCount: actual, passed: expected == actual,
            withinNanos: UInt64(withinMs * 1_000_000))))
    }

    public mutating func notifyPosted(_ process: String, _ name: String = "group.example.notes.didSave") {
        record(process, .notificationPosted(NotificationRecord(name: name, from: process, postedAt: now)))
    }

    public mutating func notifyReceived(_ process: String, _ name: String = "group.example.notes.didSave", postedAt: UInt64? = nil) {
        record(process, .notificationReceived(NotificationRecord(name: name, to: process, postedAt: postedAt)))
    }

    public mutating func refreshStarted(_ process: String, strategy: RefreshKind = .staleness, reason: RefreshReason = .darwin) {
        record(process, .refreshStarted(RefreshRecord(strategy: strategy, reason: reason)))
    }

    public mutating func refreshEnded(_ process: String, strategy: RefreshKind = .staleness, reason: RefreshReason = .darwin, updated: Int = 0) {
        record(process, .refreshEnded(RefreshRecord(strategy: strategy, reason: reason, updated: updated)))
    }
}
