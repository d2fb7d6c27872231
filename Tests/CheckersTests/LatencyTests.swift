import Basics
import Checkers
import Testing
import Trace

@Suite("change-propagation latency")
struct LatencyTests {
    /// share updates n1 ten times, 100 ms apart; app is notified after 1 ms, refreshes for 1 ms, and
    /// shows save i after (i + 1) ms.
    func tenSaves(budget: LatencyBudget? = nil) -> TraceScript {
        var script = hostShowingN1()
        script.info.latencyBudget = budget
        for i in 0..<10 {
            let base = 100.0 + Double(i) * 100
            script.at(ms: base)
            script.update("share", "n1", ["title": .string("v\(i)")], version: Int64(i + 2))
            script.at(ms: base + 0.5)
            script.notifyReceived("app")
            script.refreshStarted("app")
            script.at(ms: base + 0.75)
            script.refreshEnded("app")
            script.at(ms: base + Double(i + 1))
            script.read("app", "n1", ["title": .string("v\(i)")], version: Int64(i + 2), final: false)
        }
        return script
    }

    @Test func percentilesOfAKnownTrace() throws {
        let result = check(tenSaves())
        let pair = try #require(result.latency.pairs.first { $0.writer == "share" && $0.reader == "app" })
        let visible = try #require(pair.shown)
        #expect(visible.count == 10)
        #expect(visible.min == 1_000_000)
        #expect(visible.max == 10_000_000)
        // Three significant digits: within 0.1% of 5, 9 and 10 ms.
        #expect(abs(Double(visible.p50) - 5_000_000) <= 5_000)
        #expect(abs(Double(visible.p90) - 9_000_000) <= 9_000)
        #expect(abs(Double(visible.p99) - 10_000_000) <= 10_000)
        let notified = try #require(pair.notified)
        #expect(abs(Double(notified.p50) - 500_000) <= 500)
        let refreshed = try #require(pair.refreshed)
        #expect(abs(Double(refreshed.max) - 750_000) <= 750)
        #expect(pair.unseen == 0)
        #expect(pair.shownBuckets.reduce(0) { $0 + $1.count } == 10)
        #expect(pair.refreshedBuckets.reduce(0) { $0 + $1.count } == 10)
        #expect(pair.unrefreshed == 0)
        #expect(result.latency.refreshed?.count == 10)
        #expect(result.refreshCosts == [RefreshCost(process: "app", count: 10, totalNanos: 2_500_000)])
    }

    @Test func readStillStaleDoesNotCountAsShown() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 150)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache, final: false)
        script.at(ms: 180)
        script.read("app", "n1", ["title": .string("B")], final: false)
        let result = check(script)
        let propagation = try #require(result.latency.propagations.first { $0.writer == "share" })
        #expect(propagation.seenAt == script.start + 180_000_000)
        #expect(propagation.latency == 80_000_000)
    }

    @Test func countShowsInsertsAndDeletes() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.insert("share", "m1", ["title": .string("M")])
        script.at(ms: 130)
        script.count("app", ids: ["n1"], final: false)
        script.at(ms: 140)
        script.count("app", ids: ["n1", "m1"])
        let result = check(script)
        #expect(result.latency.propagations.first { $0.object == "m1" }?.latency == 40_000_000)
    }

    @Test func saveNeverShownToALiveReaderIsUnseen() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 200)
        script.read("app", "n1", ["title": .string("A")], version: 1, final: false)
        let pair = try #require(check(script).latency.pairs.first { $0.writer == "share" })
        #expect(pair.unseen == 1)
        #expect(pair.shown == nil)
    }

    @Test func budgetExceededIsLatencyBudget() throws {
        let result = check(tenSaves(budget: LatencyBudget(p50: 50_000_000, p99: 5_000_000)))
        #expect(kinds(result) == [.latencyBudget])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.process == "app")
        #expect(anomaly.explanation == "Changes from share took 10 ms at p99 to show in app (10 saves), over the 5 ms budget.")
    }

    @Test func aWatchWithItsOwnStoreShowsThePhonesSaveThroughSyncByValue() throws {
        var script = TraceScript(
            processes: [(name: "app", role: .host), (name: "watch", role: .watch)],
            stores: ["watch": "own:watch"])
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")], version: 1)
        script.at(ms: 60)
        // The import is the watch's own commit to its store (its own version 1), not followed again.
        script.commit("watch", [CommittedObject(id: "n1", entity: "Note", operation: .insert, version: 1, values: ["title": .string("A")])],
                      store: "own:watch")
        script.at(ms: 70)
        script.read("watch", "n1", ["title": .string("A")], version: 1)
        let result = check(script)
        let pair = try #require(result.latency.pairs.first { $0.writer == "app" && $0.reader == "watch" })
        #expect(pair.shown?.count == 1)
        #expect(abs(Double(pair.shown?.p50 ?? 0) - 60_000_000) <= 60_000)
        #expect(!result.latency.pairs.contains { $0.writer == "watch" && $0.reader == "app" })
    }

    @Test func aRefreshAfterWhichAReadIsStillStaleDidNotBringTheSave() throws {
        // staleness -1: the darwin refresh runs 1 ms after the commit, but the read after it still shows
        // the old value; only the refresh after that one (a history merge, say) brings it.
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 101)
        script.refreshStarted("app")
        script.at(ms: 102)
        script.refreshEnded("app")
        script.at(ms: 150)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache, final: false)
        script.at(ms: 200)
        script.refreshStarted("app", strategy: .history)
        script.at(ms: 203)
        script.refreshEnded("app", strategy: .history)
        script.at(ms: 260)
        script.read("app", "n1", ["title": .string("B")], version: 2, final: false)
        let result = check(script)
        let propagation = try #require(result.latency.propagations.first { $0.writer == "share" })
        #expect(propagation.refreshedAt == script.start + 203_000_000)
        #expect(propagation.seenAt == script.start + 260_000_000)
        let pair = try #require(result.latency.pairs.first { $0.writer == "share" })
        #expect(pair.refreshed?.max == 103_000_000)
        #expect(pair.unrefreshed == 0)
    }

    @Test func theHarnesssFinalRefreshBringsNothing() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 300)
        script.refreshStarted("app", reason: .final)
        script.at(ms: 301)
        script.refreshEnded("app", reason: .final)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache, final: false)
        let pair = try #require(check(script).latency.pairs.first { $0.writer == "share" })
        #expect(pair.refreshed == nil)
        #expect(pair.unrefreshed == 1)
        #expect(pair.unseen == 1)
    }
}

/// Latency you can act on: a save is a sample of a pair only when the reader was running to receive it;
/// a notification posted before a commit is not that commit's; the one-line headline names the pair
/// whose saves never reached the reader.
@Suite struct LatencyPairTests {
    @Test func aSaveCommittedBeforeTheReaderLaunchedIsNoSample() throws {
        var script = hostAndShare()
        script.at(ms: 1)
        script.lifecycle("share", .launching)
        script.at(ms: 10)
        script.insert("share", "n1", ["title": .string("A"), "rank": .int(1)])
        script.at(ms: 20)
        script.lifecycle("app", .launching)
        script.at(ms: 30)
        script.read("app", "n1", ["title": .string("A"), "rank": .int(1)], version: 1, source: .sql, final: false)
        let result = check(script)
        #expect(result.latency.pairs.isEmpty, "\(result.latency.pairs)")
        #expect(result.latency.propagations.isEmpty)
    }

    @Test func aNotificationPostedBeforeTheCommitIsNotItsNotification() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        let early = script.now
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 101)
        script.notifyReceived("app", postedAt: early - 1_000_000)
        script.at(ms: 120)
        script.read("app", "n1", ["title": .string("B")], version: 2, final: false)
        let result = check(script)
        let pair = try #require(result.latency.pairs.first { $0.writer == "share" && $0.reader == "app" })
        #expect(pair.notified == nil, "the only notification was posted 1 ms before the commit")
    }

    @Test func theHeadlineIsThePairThatNeverRefreshed() throws {
        var script = hostShowingN1()
        // app -> share: refreshed within 1 ms; share -> app: never refreshed though the app looks.
        script.at(ms: 50)
        script.update("app", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 50.5)
        script.refreshStarted("share")
        script.at(ms: 51)
        script.refreshEnded("share")
        script.at(ms: 52)
        script.read("share", "n1", ["title": .string("B")], version: 2, final: false)
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("C")], version: 3)
        script.at(ms: 200)
        script.read("app", "n1", ["title": .string("B")], version: 2, source: .cache, final: false)
        let result = check(script)
        #expect(result.latency.headline == LatencyPair(writer: "share", reader: "app"), "\(result.latency.pairs)")
        #expect(result.latency.headlinePair?.refreshed == nil && result.latency.headlinePair?.unrefreshed == 1)
    }

    /// A fetch (a widget's reload, a relaunched process) reads the store's rows: a save it showed was
    /// brought, so the pair is not "never refreshed, first shown in 40 ms".
    @Test func aSaveAReadShowedWithoutARefreshWasBroughtByThatRead() throws {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.insert("share", "m1", ["title": .string("M")])
        script.at(ms: 140)
        script.count("app", ids: ["n1", "m1"], final: false)
        let result = check(script)
        let pair = try #require(result.latency.pairs.first { $0.writer == "share" && $0.reader == "app" })
        #expect(pair.unrefreshed == 0, "\(pair)")
        #expect(pair.refreshed?.max == 40_000_000)
        #expect(result.latency.propagations.first { $0.object == "m1" }?.refreshedAt == script.start + 140_000_000)
    }

    /// The headline is about what the checks looked at: a pair whose reader never read nor counted what
    /// the writer changed is no headline, however slow it was to refresh.
    @Test func theHeadlineIsAPairWhoseReaderLookedForTheSaves() throws {
        var script = hostShowingN1()
        // share -> app: the app refreshes and reads C within 1 ms. app -> share: refreshed after 90 and 130 ms
        // (the insert at 10 ms and the update at 50), never read.
        script.at(ms: 50)
        script.update("app", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("C")], version: 3)
        script.at(ms: 100.5)
        script.refreshStarted("app")
        script.at(ms: 100.8)
        script.refreshEnded("app")
        script.at(ms: 101)
        script.read("app", "n1", ["title": .string("C")], version: 3, final: false)
        script.at(ms: 130)
        script.refreshStarted("share")
        script.at(ms: 140)
        script.refreshEnded("share")
        let result = check(script)
        let slow = try #require(result.latency.pairs.first { $0.writer == "app" && $0.reader == "share" })
        #expect(slow.refreshed?.max == 130_000_000, "\(result.latency.pairs)")
        #expect(result.latency.headline == LatencyPair(writer: "share", reader: "app"), "\(result.latency.pairs)")
    }
}

