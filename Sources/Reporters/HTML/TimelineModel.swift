import Basics
import Checkers
import Trace

/// What the swim-lane timeline draws, derived from a trace and its check result: one lane per
/// process with its lifecycle, and the marks placed on the lanes. Times are offsets from the run's
/// first event, in nanoseconds.
struct TimelineModel {
    enum State: String, CaseIterable {
        case active, background, suspended, notRunning = "not-running"

        var label: String {
            switch self {
            case .active: "running / active"
            case .background: "background"
            case .suspended: "suspended"
            case .notRunning: "not running"
            }
        }
    }

    struct Segment { var start: UInt64; var end: UInt64; var state: State }

    struct Lane {
        var name: String
        var role: String
        var store: String
        var segments: [Segment] = []
    }

    struct Save { var process: String; var t: UInt64; var label: String; var detail: String; var objects: [String] }
    struct Point { var process: String; var t: UInt64; var label: String }
    struct Span { var process: String; var start: UInt64; var end: UInt64; var label: String }
    struct Read { var process: String; var t: UInt64; var final: Bool; var step: Int?; var label: String; var objects: [String] }
    struct StepMark { var process: String; var t: UInt64; var index: Int; var label: String; var detail: String }

    var span: UInt64
    var lanes: [Lane] = []
    var saves: [Save] = []
    var received: [Point] = []
    /// Notifications the hub never delivered (dropped while suspended, by a fault, to a process not
    /// running or not observing), on the lane of the process that missed them.
    var lost: [Point] = []
    var refreshes: [Span] = []
    var reads: [Read] = []
    var crashes: [Point] = []
    var steps: [StepMark] = []
    /// Every notification the hub routed from a poster to a receiver: post -> what became of it.
    var messages: [Message] = []

    /// One notification's way from its post to a receiver (delivered, held, coalesced or lost).
    struct Message { var from: String; var to: String; var postedAt: UInt64; var t: UInt64; var decision: HubDecision; var name: String }

    init(_ run: ReportedRun) {
        let result = run.result, info = result.info
        let origin = result.origin
        span = Swift.max(result.end - origin, 1)
        func offset(_ t: UInt64) -> UInt64 { t >= origin ? t - origin : 0 }

        var laneIndex: [String: Int] = [:]
        for process in info.processes {
            laneIndex[process.name] = lanes.count
            lanes.append(Lane(name: process.name, role: process.role.rawValue, store: process.store))
        }
        // Lifecycle: the state each process entered, and when.
        var changes: [String: [(UInt64, LifecycleState)]] = [:]
        var firstEvent: [String: UInt64] = [:], lastEvent: [String: UInt64] = [:]
        var refreshStart: [String: (UInt64, RefreshRecord)] = [:]
        let steps = Dictionary(info.steps.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        for event in run.trace.events {
            let t = offset(event.t), process = event.process
            if case .notificationRouted(let note, let decision) = event.kind, let from = note.from, let to = note.to,
               let posted = note.postedAt, laneIndex[from] != nil, laneIndex[to] != nil, from != to, decision != .posted {
                messages.append(Message(from: from, to: to, postedAt: offset(posted), t: t, decision: decision, name: note.name))
            }
            if case .notificationRouted(let note, let decision) = event.kind, decision.isLoss, let to = note.to, laneIndex[to] != nil {
                let poster = note.from.map { " of \($0)'s save" } ?? ""
                lost.append(Point(process: to, t: t, label: "the notification\(poster) was \(decision.rawValue) at \(DurationText.format(t)): \(to) never received it"))
            }
            guard laneIndex[process] != nil else { continue }
            if firstEvent[process] == nil { firstEvent[process] = t }
            lastEvent[process] = t
            switch event.kind {
            case .lifecycle(let change):
                changes[process, default: []].append((t, change.state))
                if change.state == .crashed { crashes.append(Point(process: process, t: t, label: "crashed")) }
            case .stepStarted:
                if let index = event.step, let step = steps[index] {
                    self.steps.append(StepMark(
                        process: process, t: t, index: index, label: Self.shortStep(step.text, process: process),
                        detail: "step \(index) · \(step.location.fileAndLine): \(step.text)"))
                }
            case .saveCommitted(let commit):
                let objects = commit.objects.prefix(3).map { "\($0.id) v\($0.version)" }.joined(separator: ", ")
                    + (commit.objects.count > 3 ? " +\(commit.objects.count - 3)" : "")
                let first = commit.objects.first.map { "\($0.id) v\($0.version)" } ?? "save"
                saves.append(Save(
                    process: process, t: t, label: commit.objects.count > 1 ? "\(first) +\(commit.objects.count - 1)" : first,
                    detail: "\(process) committed \(commit.source) of \(objects) to \(commit.store) at \(DurationText.format(t))",
                    objects: commit.objects.map(\.id)))
            case .notificationReceived(let note):
                received.append(Point(process: process, t: t, label: "\(process) received \(note.name) at \(DurationText.format(t))"))
            case .refreshStarted(let record):
                refreshStart[process] = (t, record)
            case .refreshEnded(let record):
                let (start, _) = refreshStart.removeValue(forKey: process) ?? (t, record)
                refreshes.append(Span(
                    process: process, start: start, end: t,
                    label: "\(process) refresh (\(record.strategy), \(record.reason)) \(DurationText.format(t - start)): \(record.inserted) inserted, \(record.updated) updated, \(record.deleted) deleted"))
            case .observed(let read):
                let shown = read.found ? ValuesText.render(read.values) : "not found"
                reads.append(Read(
                    process: process, t: t, final: read.final || read.workload, step: read.workload ? nil : event.step,
                    label: "\(process) read \(read.object) at \(DurationText.format(t)): \(shown)\(read.version.map { " (version \($0))" } ?? "") from \(read.source)\(read.final ? "" : " (an earlier attempt)")", objects: [read.object]))
            case .counted(let count):
                reads.append(Read(
                    process: process, t: t, final: count.final, step: event.step,
                    label: "\(process) counted \(count.ids.count) \(count.entity) at \(DurationText.format(t))", objects: []))
            default:
                break
            }
        }
        for process in info.processes {
            let i = laneIndex[process.name]!
            lanes[i].segments = Self.segments(
                changes[process.name] ?? [], first: firstEvent[process.name], last: lastEvent[process.name], end: span)
        }
    }

    /// Lifecycle changes to shaded spans. Without any lifecycle event a process counts as running
    /// from its first event to its last.
    static func segments(_ changes: [(UInt64, LifecycleState)], first: UInt64?, last: UInt64?, end: UInt64) -> [Segment] {
        guard !changes.isEmpty else {
            guard let first, let last else { return [Segment(start: 0, end: end, state: .notRunning)] }
            return [
                Segment(start: 0, end: first, state: .notRunning), Segment(start: first, end: Swift.max(last, first), state: .active),
                Segment(start: last, end: end, state: .notRunning),
            ].filter { $0.end > $0.start }
        }
        var segments: [Segment] = []
        var state = State.notRunning, since: UInt64 = 0
        for (t, change) in changes {
            let next: State
            switch change {
            case .launching, .active: next = .active
            case .background: next = .background
            case .suspended: next = .suspended
            case .notRunning, .exited, .crashed, .terminated, .killed: next = .notRunning
            }
            if t > since { segments.append(Segment(start: since, end: t, state: state)) }
            state = next
            since = t
        }
        if end > since { segments.append(Segment(start: since, end: end, state: state)) }
        return segments
    }

    /// `app: read n1 expect {title: B}` -> `read n1` (what fits beside a tick).
    static func shortStep(_ text: String, process: String) -> String {
        var body = Substring(text)
        if body.hasPrefix(process + ":") { body = body.dropFirst(process.count + 1) }
        // What is in parentheses explains the step ("reload (requested by app)"): the tooltip keeps it.
        let words = body.split(separator: " ").prefix { !$0.hasPrefix("(") }.prefix(2)
        let short = words.joined(separator: " ").trimmingEdges("{},:")
        return short.count > 18 ? String(short.prefix(17)) + "…" : short
    }
}

/// `{rank: 1, title: "B"}` for values in tooltips.
enum ValuesText {
    static func render(_ values: TraceValues) -> String {
        "{" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "}"
    }
}

private extension String {
    func trimmingEdges(_ set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
