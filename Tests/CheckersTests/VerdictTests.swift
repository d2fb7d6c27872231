import Basics
import Checkers
import Testing
import Trace

@Suite("verdicts and exit status")
struct VerdictTests {
    func anomaly(_ kind: AnomalyKind) -> Anomaly {
        Anomaly(kind: kind, process: "app", t: 0, explanation: "")
    }

    @Test func passRunMatchesOnlyWithoutAnomalies() {
        #expect(Verdict(expected: .pass, anomalies: []).matched)
        let verdict = Verdict(expected: .pass, anomalies: [anomaly(.busy)])
        #expect(!verdict.matched)
        #expect(verdict.unexpected == [.busy])
    }

    @Test func namedRunMatchesWhenEveryNameWasFoundWhateverElseWas() {
        let verdict = Verdict(expected: .anomalies([.staleRead, .expiredToken]),
                              anomalies: [anomaly(.staleRead), anomaly(.expiredToken), anomaly(.staleRead), anomaly(.busy)])
        #expect(verdict.matched)
        #expect(verdict.unexpected == [.busy])
        #expect(verdict.excess.isEmpty, "a list tolerates kinds beside the named ones")
        #expect(verdict.foundText == "stale-read ×2, expired-token, busy")
    }

    @Test func namedRunMissingANameDoesNotMatch() {
        let verdict = Verdict(expected: .anomalies([.conflict, .lostUpdate]), anomalies: [anomaly(.conflict)])
        #expect(!verdict.matched)
        #expect(verdict.missing == [.lostUpdate])
    }

    @Test func countsAreExactForbiddingOrOpen() {
        let counts = Expectation.counts([
            AnomalyCount(kind: .staleRead, atLeast: 1, atMost: 1),
            AnomalyCount(kind: .busy, atLeast: 0, atMost: 0),
            AnomalyCount(kind: .missedInsert, atLeast: 2, atMost: nil),
        ])
        let fine = Verdict(expected: counts, anomalies: [anomaly(.staleRead), anomaly(.missedInsert), anomaly(.missedInsert),
                                                         anomaly(.missedInsert), anomaly(.notConverged)])
        #expect(fine.matched, "kinds not named are reported, not failed")
        #expect(fine.unexpected == [.notConverged])
        let broken = Verdict(expected: counts, anomalies: [anomaly(.staleRead), anomaly(.staleRead), anomaly(.busy), anomaly(.missedInsert)])
        #expect(!broken.matched)
        #expect(broken.missing == [.missedInsert])
        #expect(broken.unexpected == [.staleRead, .busy].sorted())
        #expect(broken.excess == [.staleRead, .busy].sorted(), "too many stale reads, a forbidden busy")
        #expect(broken.brokenCountsText == "stale-read: 1, found 2; busy: 0, found 1; missed-insert: 2+, found 1")
        #expect(!Verdict(expected: .counts([AnomalyCount(kind: .busy, atLeast: 0, atMost: 0)]), anomalies: [anomaly(.busy)]).matched)
        #expect(Verdict(expected: .counts([AnomalyCount(kind: .busy, atLeast: 0, atMost: 0)]), anomalies: [anomaly(.staleRead)]).matched)
    }

    @Test func aCountPerProcessCountsThatProcesssOnly() {
        let counts = Expectation.counts([AnomalyCount(kind: .busy, atLeast: 1, atMost: 1, process: "share"),
                                         AnomalyCount(kind: .busy, atLeast: 0, atMost: 0, process: "app")])
        let share = Anomaly(kind: .busy, process: "share", t: 0, explanation: "")
        #expect(Verdict(expected: counts, anomalies: [share]).matched)
        let broken = Verdict(expected: counts, anomalies: [share, anomaly(.busy)])
        #expect(!broken.matched && broken.excess == [.busy])
        #expect(broken.brokenCountsText == "busy in app: 0, found 1")
        let none = Verdict(expected: counts, anomalies: [])
        #expect(!none.matched && none.missing == [.busy] && none.brokenCountsText == "busy in share: 1, found 0")
    }

    @Test func exitStatusIsTheWorstRun() {
        #expect(ExitStatus.combine([.matched, .matched]) == .matched)
        #expect(ExitStatus.combine([.matched, .notMatched]) == .notMatched)
        #expect(ExitStatus.combine([.notMatched, .undecided, .matched]) == .undecided)
        #expect(ExitStatus.combine([]) == .undecided)
        #expect(ExitStatus(verdict: Verdict(expected: .pass, anomalies: [])).rawValue == 0)
        #expect(ExitStatus(verdict: nil).rawValue == 2)
    }

    @Test func checkedRunCarriesItsVerdict() {
        var script = hostShowingN1(expected: .anomalies([.staleRead]))
        script.at(ms: 100)
        script.update("share", "n1", ["title": .string("B")], version: 2)
        script.at(ms: 200)
        script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
        #expect(check(script).verdict.matched)
    }

    /// A trace that ends in a harness failure is no verdict, whatever it showed before.
    @Test func aHarnessFailureInTheTraceLeavesTheRunUndecided() {
        var script = hostShowingN1(expected: .pass)
        script.at(ms: 100)
        script.record("runner", .harnessFailed(HarnessFailure(location: "s.yaml:9", process: "app", message: "timed out")))
        let result = TraceChecker.check(script.trace)
        #expect(result.verdict.harnessFailure?.location == "s.yaml:9")
        #expect(!result.verdict.matched)
        #expect(ExitStatus(verdict: result.verdict) == .undecided)
    }
}
