import Basics
import Checkers
import Testing
import Trace

/// A stale read's explanation names its cause when the trace has it.
@Suite struct CauseTests {
    private func script(settings: [String: String]) -> TraceScript {
        var script = TraceScript(processes: [("app", .host), ("share", .share)], settings: ["app": settings])
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")])
        script.at(ms: 20)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .sql)
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        return script
    }

    private func staleRead(_ script: TraceScript) throws -> Anomaly {
        try #require(TraceChecker.check(script.trace).anomalies.first { $0.kind == .staleRead })
    }

    @Test func aNotificationDroppedWhileSuspendedIsTheCause() throws {
        var script = script(settings: ["refresh": "history", "trigger": "darwin"])
        script.at(ms: 101)
        script.record("hub", .notificationRouted(
            NotificationRecord(name: "didSave", from: "share", to: "app", postedAt: script.now), decision: .droppedWhileSuspended))
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1)
        let explanation = try staleRead(script).explanation
        #expect(explanation.contains("the notification of share's save was dropped because app was suspended (delivery: drop) at 101 ms"),
                "\(explanation)")
    }

    @Test func noRefreshAtAllIsTheCause() throws {
        var script = script(settings: ["refresh": "staleness", "trigger": "activation"])
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1)
        #expect(try staleRead(script).explanation.contains("no refresh ran in app between that save and the read (trigger: activation)"))
    }

    /// The reader's own batch update: its view missed it because it was made outside the view context,
    /// not because of another process.
    @Test func aCommitOfTheReaderItselfOutsideItsViewIsTheCause() throws {
        var script = TraceScript(processes: [("app", .host)], settings: ["app": ["refresh": "none"]])
        script.at(ms: 10)
        script.insert("app", "n1", ["title": .string("A")])
        script.at(ms: 20)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .sql)
        script.at(ms: 100)
        script.update("app", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1)
        let explanation = try staleRead(script).explanation
        #expect(explanation.contains("app committed it itself outside its view context (a batch operation bypasses every context"), "\(explanation)")
        #expect(!explanation.contains("never covers another process"))
    }

    @Test func aRefreshAtInfiniteStalenessRefillsFromTheRowCache() throws {
        var script = script(settings: ["refresh": "staleness", "staleness": "-1", "trigger": "darwin"])
        script.at(ms: 150)
        script.refreshStarted("app")
        script.refreshEnded("app")
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
        #expect(try staleRead(script).explanation.hasSuffix(
            "the view kept the old row snapshot: app's refresh ran at staleness -1 and refilled n1 from the row cache."))
    }

    /// A later read of the refilled object comes from memory; the refill is still why it is old.
    @Test func aReadAfterTheRefillFromMemoryNamesTheRefillToo() throws {
        var script = script(settings: ["refresh": "staleness", "staleness": "-1", "trigger": "darwin"])
        script.at(ms: 150)
        script.refreshStarted("app")
        script.refreshEnded("app")
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .memory)
        #expect(try staleRead(script).explanation.hasSuffix("refilled n1 from the row cache."))
    }

    @Test func aRefreshThatShouldHaveWorkedNamesNoCause() throws {
        var script = script(settings: ["refresh": "staleness", "staleness": "0", "trigger": "darwin"])
        script.at(ms: 150)
        script.refreshStarted("app")
        script.refreshEnded("app")
        script.at(ms: 300)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .memory)
        #expect(try staleRead(script).explanation.hasSuffix("the object kept the values it already held in memory."))
    }
}
