import Basics
import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// The same behaviour gets the same verdict however fast the machine ran it: one recorded trace,
/// judged again with its times and event order perturbed in every way that keeps which operation
/// completed before which other began, always yields the same anomalies.
@Suite(.serialized, .spawnsProcesses) struct CheckerPerturbationTests {
    static let yaml = """
    summary: Stale, missed and lost at once, some of it from steps running together.
    store:
      group: group.test
      name: Notes
      model:
        Note:
          title: string
          rank: int = 0
    processes:
      app: { role: host, refresh: staleness, merge-policy: overwrite }
      share: { role: share }
      action: { role: action, refresh: history, trigger: manual }
    steps:
      - app: launch
      - share: launch
      - action: launch
      - app: { insert: Note, id: n1, set: { title: A } }
      - app: { insert: Note, id: n2, set: { title: X } }
      - app: save
      - app: { fetch: Note }
      - action: { fetch: Note }
      - app: { read: n1, now: true }
      - parallel:
        - share: { update: n1, set: { title: B } }
        - action: { update: n2, set: { title: Y } }
      - parallel:
        - share: save
        - action: save
        - app: { read: n1, now: true }
      - share: { insert: Note, id: m1, set: { title: M } }
      - share: save
      - parallel:
        - app: { count: Note, expect: 3, now: true }
        - action: { count: Note, expect: 3, now: true }
      - share: { delete: n2 }
      - share: save
      - app: { read: n2, now: true }
      - app: { update: n1, set: { rank: 5 } }
      - app: save
      - action: { read: n1, now: true }
    """

    /// What an anomaly says, without the times its sentence prints.
    struct Signature: Hashable, CustomStringConvertible {
        var kind: AnomalyKind, process: String, step: Int?, object: String?, property: String?, seen: String?, expected: String?
        init(_ a: Anomaly) {
            (kind, process, step, object, property, seen, expected) = (a.kind, a.process, a.step, a.object, a.property, a.seen, a.expected)
        }
        var description: String { "\(kind.rawValue) \(process) step \(step.map(String.init) ?? "-") \(object ?? "") \(property ?? "")" }
    }

    static func signatures(_ trace: RunTrace) -> [Signature] {
        TraceChecker.check(trace).anomalies.map(Signature.init).sorted { $0.description < $1.description }
    }

    @Test func verdictsDependOnOrderNotOnSpeed() throws {
        let outcome = try RunHarness.single(Self.yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        let baseline = Self.signatures(outcome.trace)
        let kinds = Set(baseline.map(\.kind))
        #expect(kinds.isSuperset(of: [.staleRead, .missedInsert, .missedDelete, .lostUpdate]), "\(baseline)")
        var random = SeededRandom(seed: 20261123)
        for round in 0..<200 {
            let perturbed = Self.perturb(outcome.trace, random: &random)
            let found = Self.signatures(perturbed)
            #expect(found == baseline, "round \(round): \(found) instead of \(baseline)")
            if found != baseline { break }
        }
    }

    /// A trace equivalent to `trace` for every "completed before it began" relation: in the sorted list
    /// of every event's start and end, a run of consecutive ends (or of consecutive starts) can come in
    /// any order without changing any end-against-start comparison; the runs are shuffled, and the
    /// instants then spread out anew with random gaps (from 1 ns to 20 ms). A commit's start, taken
    /// under the store's write lock, is a fact of commit order and stays where it is.
    static func perturb(_ trace: RunTrace, random: inout SeededRandom) -> RunTrace {
        enum Kind { case start, end, instant }
        struct Point { var time: UInt64; var kind: Kind; var event: Int }
        var points: [Point] = []
        for (index, event) in trace.events.enumerated() {
            if case .saveCommitted = event.kind, let start = event.start, start < event.t {
                // A commit's start is taken under the write lock: commit order is a fact, never shuffled.
                points.append(Point(time: start, kind: .instant, event: -1 - index))
                points.append(Point(time: event.t, kind: .end, event: index))
            } else if let start = event.start, start < event.t {
                points.append(Point(time: start, kind: .start, event: index))
                points.append(Point(time: event.t, kind: .end, event: index))
            } else {
                points.append(Point(time: event.t, kind: .instant, event: index))
            }
        }
        points.sort { $0.time < $1.time }
        // Group into slots: points sharing one time form one slot; a slot is freely movable only
        // among neighbouring slots of the same single kind.
        var slots: [[Point]] = []
        for point in points {
            if let last = slots.last?.first, last.time == point.time { slots[slots.count - 1].append(point) } else { slots.append([point]) }
        }
        func kind(_ slot: [Point]) -> Kind? {
            let kinds = Set(slot.map { "\($0.kind)" })
            return kinds.count == 1 && slot[0].kind != .instant ? slot[0].kind : nil
        }
        var index = 0
        while index < slots.count {
            guard let k = kind(slots[index]) else { index += 1; continue }
            var end = index + 1
            while end < slots.count, kind(slots[end]) == k { end += 1 }
            slots[index..<end].shuffle(using: &random)
            index = end
        }
        var time = trace.events.first?.t ?? 1_000_000_000
        var starts: [Int: UInt64] = [:], ends: [Int: UInt64] = [:]
        for slot in slots {
            time += 1 + random.next(below: 20_000_000)
            for point in slot {
                switch point.kind {
                case .start: starts[point.event] = time
                case .instant where point.event < 0: starts[-1 - point.event] = time
                case .end, .instant: ends[point.event] = time
                }
            }
        }
        var events = trace.events
        for i in events.indices {
            events[i].t = ends[i]!
            if events[i].start != nil { events[i].start = starts[i] ?? ends[i]! }
        }
        // The merged order a runner would write: by completion time; ties in a random order.
        let order = events.indices.map { ($0, random.next()) }.sorted { a, b in
            events[a.0].t != events[b.0].t ? events[a.0].t < events[b.0].t : a.1 < b.1
        }
        return RunTrace(info: trace.info, events: order.map { events[$0.0] })
    }
}
