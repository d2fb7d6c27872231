import Trace

/// One judgment of a run's trace, made in `TraceChecker`'s second pass: it sees every event of the kinds
/// it names, in trace order, then adds what it found. A new checker is a type conforming to this and one
/// line in `TraceChecker.judges`.
///
/// What the judges share is found once per event (`JudgedEvent`: the process's and objects' numbers) and
/// once per run (`CheckFindings`: what one judge hands to another that finishes after it).
protocol TraceJudge {
    /// The kinds of events it sees: the others never reach it.
    static var sees: EventKinds { get }
    /// Sees one event.
    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings)
    /// After the last event: adds what only the whole run shows, in `TraceChecker.judges` order.
    mutating func finish(into findings: inout CheckFindings)
}

extension TraceJudge {
    static var sees: EventKinds { [] }
    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {}
    mutating func finish(into findings: inout CheckFindings) {}
}

/// Kinds of trace events, as a set: what a judge sees.
struct EventKinds: OptionSet {
    let rawValue: UInt32

    init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    static let saveCommitted = EventKinds(rawValue: 1 << 0)
    static let observed = EventKinds(rawValue: 1 << 1)
    static let counted = EventKinds(rawValue: 1 << 2)
    static let check = EventKinds(rawValue: 1 << 3)
    static let notificationReceived = EventKinds(rawValue: 1 << 4)
    static let refreshStarted = EventKinds(rawValue: 1 << 5)
    static let refreshEnded = EventKinds(rawValue: 1 << 6)
    static let conflict = EventKinds(rawValue: 1 << 7)
    static let saveFailed = EventKinds(rawValue: 1 << 8)
    static let error = EventKinds(rawValue: 1 << 9)
    static let historyFetched = EventKinds(rawValue: 1 << 10)
    static let stepEnded = EventKinds(rawValue: 1 << 11)
    static let lifecycle = EventKinds(rawValue: 1 << 12)
    static let verified = EventKinds(rawValue: 1 << 13)
    static let finalStore = EventKinds(rawValue: 1 << 14)
    static let finalView = EventKinds(rawValue: 1 << 15)
    static let storeGrowth = EventKinds(rawValue: 1 << 16)
    static let warning = EventKinds(rawValue: 1 << 17)
    static let harnessFailed = EventKinds(rawValue: 1 << 18)
    /// Events no judge of the second pass sees (the first pass reads some of them).
    static let unjudged = EventKinds(rawValue: 1 << 19)

    /// The kind of `kind`, by one exhaustive switch: a new event kind must say who sees it.
    init(_ kind: borrowing TraceEventKind) {
        switch kind {
        case .saveCommitted: self = .saveCommitted
        case .observed: self = .observed
        case .counted: self = .counted
        case .check: self = .check
        case .notificationReceived: self = .notificationReceived
        case .refreshStarted: self = .refreshStarted
        case .refreshEnded: self = .refreshEnded
        case .conflict: self = .conflict
        case .saveFailed: self = .saveFailed
        case .error: self = .error
        case .historyFetched: self = .historyFetched
        case .stepEnded: self = .stepEnded
        case .lifecycle: self = .lifecycle
        case .verified: self = .verified
        case .finalStore: self = .finalStore
        case .finalView: self = .finalView
        case .storeGrowth: self = .storeGrowth
        case .warning: self = .warning
        case .harnessFailed: self = .harnessFailed
        case .runStarted, .stepStarted, .notificationPosted, .notificationRouted, .purged, .sqlRead, .faultFulfilled,
             .snapshotDropped, .note:
            self = .unjudged
        }
    }
}

/// One event as the judges see it: read in place, through the trace's buffer (a copy of each, its
/// payload's strings and lists retained and released again, cost a long run's checking more than most
/// judgments), with the numbers several judges ask for found once, when the first asks.
struct JudgedEvent {
    private let events: UnsafeBufferPointer<TraceEvent>
    /// Where the event is in the trace.
    let index: Int
    private var processNumber: Int??
    private var objectNumber: (id: String, number: Int?)?
    private var countedNumbers: [Int?]?

    init(_ events: UnsafeBufferPointer<TraceEvent>, index: Int, kinds: EventKinds) {
        self.events = events
        self.index = index
        self.kinds = kinds
        if kinds == .observed, case .observed(let read) = events[index].kind {
            observation = read
        } else {
            observation = nil
        }
        // A check's final attempt asked after its deadline shows others' commits as of the deadline.
        let asOf: UInt64? = if let observation { observation.viewAsOf } else if kinds == .counted,
            case .counted(let count) = events[index].kind { count.viewAsOf } else { nil }
        invoked = min(events[index].invokedAt, asOf ?? .max)
    }

    var kind: TraceEventKind { events[index].kind }
    /// The event's kind, as a set of one (a test that binds no payload).
    let kinds: EventKinds
    /// The read an `observed` event holds, bound once for every judge that sees it. Bound by each from
    /// `kind`, through the trace's buffer, it was copied (every string and list retained) per judge:
    /// nothing tells the compiler that no call the judge makes writes the buffer. A judge that binds it
    /// from here and does not change the event before it is done with it borrows it.
    let observation: Observation?
    var process: String { events[index].process }
    var step: Int? { events[index].step }
    var t: UInt64 { events[index].t }
    /// When the event began (its `start`); for a read or count whose view is as of an earlier moment
    /// (`Observation.viewAsOf`), that moment: what was committed after it is none the view could show.
    let invoked: UInt64

    /// The process's number in `numbers` (every judge's are the trace's one numbering, passed in rather than
    /// kept: a copy per event cost its references' retains), nil for one the header does not name.
    mutating func number(in numbers: TraceNumbers) -> Int? {
        if let processNumber { return processNumber }
        let found = numbers.process(events[index].process)
        processNumber = .some(found)
        return found
    }

    /// The number of the object an `observed` event read, nil for one no commit wrote (or another event).
    mutating func observedObject(in numbers: TraceNumbers) -> Int? {
        guard let id = observation?.object else { return nil }
        return number(of: id, in: numbers)
    }

    /// `id`'s number in `numbers`, nil for an object no commit wrote.
    mutating func number(of id: String, in numbers: TraceNumbers) -> Int? {
        if let objectNumber, objectNumber.id == id { return objectNumber.number }
        let found = numbers.object(id)
        objectNumber = (id, found)
        return found
    }

    /// The numbers of a count's `ids`, by position (nil for an id no commit wrote): a long run's counts
    /// hold a thousand ids each, numbered once for the count checker and the latency tracker.
    mutating func numbers(of ids: [String], in numbers: TraceNumbers) -> [Int?] {
        if let countedNumbers { return countedNumbers }
        let found = ids.map { numbers.object($0) }
        countedNumbers = found
        return found
    }
}

/// What the judges found, and what one hands to another that finishes after it.
struct CheckFindings {
    var anomalies: [Anomaly] = []
    /// Steps whose failed check a read or count anomaly explains (`ExpectationChecker` leaves them alone).
    var explainedSteps: Set<StepKey> = []
    /// Count steps with a `where:` predicate, not judged by id.
    var predicateSteps: Set<StepKey> = []
    var latency = LatencyReport()
    var refreshCosts: [RefreshCost] = []
    var unexpectedErrors: [UnexpectedError] = []
    var warnings: [String] = []
    var growth: [StoreGrowth] = []
    var harnessFailure: HarnessFailure?
    /// The `t` of the last event.
    let end: UInt64
    /// When each process of the header was last heard from.
    let lastEvents: [String: UInt64]
}

/// A judge boxed once, called by reference: its state changes in place, event after event.
class AnyJudge {
    let sees: EventKinds

    init(sees: EventKinds) {
        self.sees = sees
    }

    func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {}
    func finish(into findings: inout CheckFindings) {}
}

final class JudgeBox<Judge: TraceJudge>: AnyJudge {
    /// Only ever reached through `see` and `finish`, one at a time: no access can overlap, and checking
    /// at run time that none does cost more than some judgments.
    @exclusivity(unchecked) private var judge: Judge

    init(_ judge: Judge) {
        self.judge = judge
        super.init(sees: Judge.sees)
    }

    override func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        judge.see(&event, into: &findings)
    }

    override func finish(into findings: inout CheckFindings) {
        judge.finish(into: &findings)
    }
}
