import Basics
import Checkers
import Foundation
import Reporters
import Testing
import Trace

/// What the report page draws so a person can read it: retries of one check as one counted mark,
/// missed-commit arrows on demand once there are many, the anomaly the variant expects up front.
@Suite("report timeline and anomaly list")
struct TimelineTests {
    private func page(_ trace: RunTrace) -> String {
        HTMLReport.render(ReportedRun(checking: trace))
    }

    /// How often `needle` occurs in the page's timeline (the legend above it has one of each mark).
    private func occurrences(_ needle: String, in html: String) -> Int {
        guard let start = html.range(of: "<svg class=\"timeline\""),
              let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex) else { return -1 }
        return html[start.lowerBound..<end.upperBound].components(separatedBy: needle).count - 1
    }

    @Test func theEarlierAttemptsOfOneCheckAreOneMarkWithTheirCount() {
        let html = page(SampleTraces.refreshWithInfiniteStaleness(variant: "stale-cache"))
        #expect(occurrences("class=\"read-retries\"", in: html) == 1)
        #expect(html.contains(">×8</text>"))
        #expect(occurrences("class=\"read-attempt\"", in: html) == 0, "no attempt is drawn on its own")
    }

    /// `count` missed inserts by share, each read by app (found nothing) 400 ms after the insert.
    private func missedInserts(_ count: Int, alsoStale: Bool = false) -> RunTrace {
        var s = TraceScript(processes: [("app", .host), ("share", .share)],
                            expected: alsoStale ? .anomalies([.staleRead]) : .pass)
        s.at(ms: 1)
        s.insert("app", "n0", ["title": .string("A")])
        for k in 1...count {
            s.at(ms: Double(k) * 10)
            s.insert("share", "m\(k)", ["title": .string("M")])
        }
        for k in 1...count {
            s.at(ms: 500 + Double(k))
            s.step("app", "app: read m\(k)", line: 10 + k)
            s.read("app", "m\(k)", found: false)
        }
        if alsoStale {
            s.at(ms: 700)
            s.update("share", "n0", ["title": .string("B")], version: 2, changed: ["title"])
            s.at(ms: 900)
            s.step("app", "app: read n0", line: 99)
            s.read("app", "n0", ["title": .string("A")], version: 1)
        }
        return s.trace
    }

    @Test func aFewMissedCommitsAreDrawnAsArrowsAlways() {
        let html = page(missedInserts(3))
        #expect(occurrences("class=\"missed\"", in: html) == 3)
        #expect(!html.contains("on-demand\"") && !html.contains("show on the timeline"))
    }

    @Test func manyMissedCommitsAreDrawnOnlyForTheAnomalyPointedAt() {
        let html = page(missedInserts(14))
        #expect(occurrences("class=\"missed on-demand", in: html) == 14)
        #expect(occurrences("class=\"missed\"", in: html) == 0)
        #expect(html.contains("id=\"t14\"") && html.contains("<a href=\"#t14\">show on the timeline</a>"))
    }

    @Test func theCalloutLeadsWithTheKindTheVariantExpectsAndTheListGroupsByKind() throws {
        let run = ReportedRun(checking: missedInserts(4, alsoStale: true))
        let kinds = run.result.anomalies.map(\.kind)
        let stale = try #require(kinds.firstIndex(of: .staleRead))
        #expect(stale > 0, "the stale read comes after the missed inserts in time")
        let html = HTMLReport.render(run)
        #expect(html.contains("<p class=\"callout\"><a class=\"num-dot\" href=\"#a\(stale + 1)\">\(stale + 1)</a><strong>stale-read</strong>"))
        let staleHeading = try #require(html.range(of: "<h3 id=\"kind-stale-read\">stale-read ×1</h3>"))
        let missedHeading = try #require(html.range(of: "<h3 id=\"kind-missed-insert\">missed-insert ×4</h3>"))
        #expect(staleHeading.lowerBound < missedHeading.lowerBound, "the expected kind is listed first")
        #expect(html.contains("<summary>1 more missed-insert</summary>"), "past three, the rest of a kind is folded")
    }

    @Test func latencyOverTheRunPlotsEachSaveOrSaysItWasNeverRefreshed() {
        let fresh = page(SampleTraces.refreshWithInfiniteStaleness(variant: "fresh-cache"))
        #expect(fresh.contains("share → app, over the run"))
        #expect(fresh.components(separatedBy: "class=\"dot-refreshed\"").count - 1 >= 1)
        #expect(fresh.components(separatedBy: "class=\"dot-shown\"").count - 1 >= 1)
        let stale = page(SampleTraces.refreshWithInfiniteStaleness(variant: "stale-cache"))
        #expect(stale.contains("share → app, over the run"))
        #expect(!stale.contains("n1: first shown"), "share's save was never shown in app")
    }

    @Test func aWorkloadRunCountsEachProcesssOperations() {
        var s = TraceScript(processes: [("app", .host)])
        let workload = s.step(nil, "workload Note on app for 1s", line: 5)
        s.use(step: workload, for: "app")
        s.at(ms: 10)
        s.insert("app", "k1", ["title": .string("w1")])
        s.at(ms: 20)
        s.read("app", "k1", ["title": .string("w1")], version: 1, workload: true)
        s.read("app", "k2", found: false, workload: true)
        let html = page(s.trace)
        #expect(html.contains("<h2 id=\"workload\">Workload</h2>"))
        #expect(html.contains("<tr><td>app</td><td class=\"num\">3</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">1</td><td>insert 1</td>"))
        #expect(!page(SampleTraces.refreshWithInfiniteStaleness()).contains("id=\"workload\""), "no workload, no table")
    }

    @Test func aShortSuspensionIsABandWideEnoughToSeeAtAnyScale() {
        var s = TraceScript(processes: [("app", .host)])
        s.at(ms: 1)
        s.lifecycle("app", .active)
        s.at(ms: 100)
        s.lifecycle("app", .suspended)
        s.at(ms: 100.2)
        s.lifecycle("app", .active)
        s.at(ms: 60_000)
        s.lifecycle("app", .terminated)
        let html = page(s.trace)
        let band = html.components(separatedBy: "class=\"band-suspended\"")
        #expect(band.count == 2, "one suspension, one band")
        #expect(html.contains("width=\"6\" height=\"6\" class=\"band-suspended\""), "200 µs in a minute is still 6 px wide")
    }

    @Test func anomaliesTooCloseToReadAreOneDotWithACountAndKeepTheirAnchors() {
        let html = page(missedInserts(14))
        let dots = occurrences("class=\"anomaly-dot\"", in: html)
        #expect(dots >= 1 && dots < 14, "14 reads within 14 ms share a few dots, not 14 overlapping ones")
        #expect(occurrences("class=\"anomaly-more\"", in: html) >= 1)
        #expect((1...14).allSatisfy { html.contains("id=\"t\($0)\"") }, "every anomaly can still be shown on the timeline")
        #expect(html.contains("<p class=\"by-object\">By object: <a href=\"#a1\">m1</a> (missed-insert)"))
    }

    /// A stale read a second before the end of a minute-long run: a sliver of the full timeline, so the
    /// page adds a close-up from the commit it missed to the read, which links to the list without
    /// taking the full timeline's anchor.
    @Test func anAnomalyInALongRunGetsACloseUp() throws {
        var s = TraceScript(processes: [("app", .host), ("share", .share)], expected: .anomalies([.staleRead]))
        s.at(ms: 1)
        s.insert("app", "n1", ["title": .string("A")])
        s.at(ms: 59_000)
        s.step("share", "share: update n1 {title: B}", line: 9)
        s.update("share", "n1", ["title": .string("B")], version: 2, changed: ["title"])
        s.at(ms: 59_010)
        s.step("app", "app: reload (requested by share)", line: 10)
        s.read("app", "n1", ["title": .string("A")], version: 1)
        s.at(ms: 60_000)
        s.lifecycle("app", .terminated)
        let html = page(s.trace)
        #expect(html.contains("Close-up of anomaly <a href=\"#a1\">1</a>: "), "one close-up, naming its anomaly")
        #expect(html.components(separatedBy: "<svg class=\"timeline\"").count == 3, "the full timeline and one close-up")
        #expect(html.components(separatedBy: "id=\"t1\"").count == 2, "the anchor is the full timeline's alone")
        let closeUp = try #require(html.components(separatedBy: "Close-up of anomaly").last)
        #expect(closeUp.contains("clip-path=\"url(#focus-"), "marks outside the window are clipped")
        #expect(closeUp.contains(">59 s</text>") || closeUp.contains(">59.01 s</text>") || closeUp.contains(">59.005 s</text>"), "the axis counts from the window")
        #expect(!closeUp.contains(">0</text>"), "the run's start is not on the close-up's axis")
        #expect(html.contains(">1 reload</text>"), "a step's label leaves out its explanation in parentheses")
        // An anomaly whose stretch is most of the run needs no close-up.
        #expect(!page(missedInserts(3)).contains("Close-up"))
    }

    /// "At the end, widget's view still shows …" is drawn at the run's end, not at the reload that
    /// rendered the view (the explanation says when that was), which sat mid-timeline.
    @Test func aViewThatDidNotConvergeIsMarkedAtTheRunsEnd() throws {
        let group = "group:group.example.notes"
        var s = TraceScript(processes: [("app", .host), ("widget", .widget)], expected: .anomalies([.notConverged]))
        s.at(ms: 10)
        s.insert("app", "n1", ["title": .string("A")])
        s.at(ms: 20)
        s.record("widget", .finalView(StateSnapshot(store: group, objects: [ObjectState(id: "n1", entity: "Note", version: 1, values: ["title": .string("A")])])))
        s.at(ms: 30)
        s.delete("app", "n1", version: 2)
        s.at(ms: 100)
        s.record("runner", .finalStore(StateSnapshot(store: group, objects: [])))
        let page = page(s.trace)
        let start = try #require(page.range(of: "<svg class=\"timeline\""))
        let html = page[start.lowerBound...].components(separatedBy: "</svg>")[0]
        func centres(_ cls: String) -> [Double] {
            html.components(separatedBy: "class=\"\(cls)\"").dropLast().compactMap { before in
                before.components(separatedBy: "cx=\"").last.flatMap { Double($0.prefix { $0 != "\"" }) }
            }
        }
        let saves = centres("save"), dots = centres("anomaly-dot")
        #expect(saves.count == 2 && dots.count == 1, "\(saves) \(dots)")
        // Saves at 10 and 30 ms, the run ends at 100 ms: the dot is far right of the last save.
        if let dot = dots.first, let first = saves.min(), let last = saves.max() {
            #expect(dot - last > 3 * (last - first), "dot at \(dot), saves at \(saves)")
        }
    }
}
