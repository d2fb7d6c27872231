import Checkers
import Reporters
import Trace

/// Hand-built traces that look like what the runner records, for report tests and sample reports.
enum SampleTraces {
    /// Bug 1 of Docs/Bugs.md, "refresh is a no-op with infinite staleness": the host shows n1 (title A); the
    /// share extension sets B and saves; the host refreshes on the notification and reads n1 again
    /// within 200 ms.
    ///
    /// - `stale-cache` (staleness -1): refreshAllObjects keeps the row snapshot, every read shows A:
    ///   a stale read, and the view never converges.
    /// - `fresh-cache` (staleness 0): the refresh drops the snapshot, the next read fires a fault from
    ///   SQL and shows B.
    static func refreshWithInfiniteStaleness(variant: String = "stale-cache") -> RunTrace {
        let stale = variant == "stale-cache"
        var s = TraceScript(
            processes: [("app", .host), ("share", .share)],
            scenario: "refresh-with-infinite-staleness", variant: variant,
            file: "Scenarios/refresh-with-infinite-staleness.yaml",
            summary: "The app keeps showing the old title after the share extension saved a new one.",
            seed: 7, expected: stale ? .anomalies([.staleRead]) : .pass,
            settings: [
                "app": ["refresh": "staleness", "staleness": stale ? "-1" : "0", "trigger": "darwin", "merge-policy": "error"],
                "share": ["notify": "true", "merge-policy": "error"],
            ])
        let group = "group:group.example.notes"
        let n1: TraceValues = ["title": .string("A"), "rank": .int(1)]

        s.at(ms: 0.4)
        s.step("app", "app: launch", line: 26)
        s.lifecycle("app", .launching)
        s.at(ms: 8.2)
        s.lifecycle("app", .active)
        s.endStep("app")
        s.at(ms: 9)
        s.step("app", "app: insert Note n1 set {title: A, rank: 1}", line: 27)
        s.endStep("app")
        s.at(ms: 10.5)
        s.step("app", "app: save", line: 28)
        s.at(ms: 12.1)
        s.insert("app", "n1", n1)
        s.notifyPosted("app")
        s.endStep("app")
        s.at(ms: 13)
        s.step("app", "app: fetch Note", line: 29)
        s.record("app", .sqlRead(entity: "Note", rows: 1))
        s.endStep("app")
        s.at(ms: 15.4)
        s.step("app", "app: read n1 expect {title: A} now", line: 30)
        s.record("app", .faultFulfilled(object: "n1", source: .sql))
        s.read("app", "n1", n1, version: 1, source: .sql)
        s.checkRead("app", "n1", expected: ["title": .string("A")], actual: n1)
        s.endStep("app")

        s.at(ms: 150)
        s.step("share", "share: launch", line: 31)
        s.lifecycle("share", .launching)
        s.at(ms: 158)
        s.lifecycle("share", .active)
        s.endStep("share")
        s.at(ms: 160)
        s.step("share", "share: update n1 set {title: B}", line: 32)
        s.endStep("share")
        s.at(ms: 226)
        s.step("share", "share: save", line: 33)
        s.at(ms: 230)
        s.update("share", "n1", ["title": .string("B"), "rank": .int(1)], version: 2, changed: ["title"])
        s.notifyPosted("share")
        let posted = s.now
        s.at(ms: 230.05)
        s.record("hub", .notificationRouted(NotificationRecord(name: "group.example.notes.didSave", from: "share", to: "app", postedAt: posted), decision: .delivered))
        s.notifyReceived("app", postedAt: posted)
        s.refreshStarted("app", strategy: .staleness, reason: .darwin)
        s.at(ms: 230.4)
        if !stale { s.record("app", .snapshotDropped(object: "n1")) }
        s.refreshEnded("app", strategy: .staleness, reason: .darwin, updated: 1)
        s.endStep("share")
        s.at(ms: 234)
        s.step("share", "share: exit", line: 34)
        s.lifecycle("share", .exited)

        s.at(ms: 240)
        let read = "app: read n1 expect {title: B} within 200ms"
        s.step("app", read, line: 35)
        if stale {
            var t = 240.0
            while t < 440 {
                s.at(ms: t)
                s.record("app", .faultFulfilled(object: "n1", source: .cache))
                s.read("app", "n1", n1, version: 1, source: .cache, final: false)
                t += 25
            }
            s.at(ms: 441.2)
            s.read("app", "n1", n1, version: 1, source: .cache)
            s.checkRead("app", "n1", expected: ["title": .string("B")], actual: n1, withinMs: 200)
        } else {
            s.record("app", .faultFulfilled(object: "n1", source: .sql))
            s.read("app", "n1", ["title": .string("B"), "rank": .int(1)], version: 2, source: .sql)
            s.checkRead("app", "n1", expected: ["title": .string("B")], actual: ["title": .string("B"), "rank": .int(1)], withinMs: 200)
        }
        s.endStep("app")

        // The end: a final quiescent refresh, then the store and the live view.
        s.at(ms: stale ? 452 : 252)
        s.refreshStarted("app", strategy: .staleness, reason: .final)
        s.advance(nanos: 300_000)
        s.refreshEnded("app", strategy: .staleness, reason: .final)
        s.record("runner", .finalStore(StateSnapshot(store: group, objects: [
            ObjectState(id: "n1", entity: "Note", version: 2, values: ["title": .string("B"), "rank": .int(1)]),
        ])))
        s.record("app", .finalView(StateSnapshot(store: group, objects: [
            ObjectState(id: "n1", entity: "Note", version: stale ? 1 : 2, values: ["title": .string(stale ? "A" : "B"), "rank": .int(1)]),
        ])))
        s.advance(nanos: 1_000_000)
        s.lifecycle("app", .terminated)
        return s.trace
    }

    /// Both variants of bug 1, checked, for comparisons.
    static func refreshWithInfiniteStalenessRuns() -> [ReportedRun] {
        ["stale-cache", "fresh-cache"].map { ReportedRun(checking: refreshWithInfiniteStaleness(variant: $0)) }
    }
}
