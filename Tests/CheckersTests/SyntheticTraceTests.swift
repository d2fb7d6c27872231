@testable import Checkers
import Testing
import Trace

@Suite("at scale")
struct SyntheticTraceTests {
    @Test func wellBehavedLoadShowsNoAnomaly() {
        let trace = SyntheticTrace.generate(events: 20_000, seed: 3)
        let result = TraceChecker.check(trace)
        #expect(result.anomalies.isEmpty, "\(result.anomalies.prefix(3).map(\.explanation))")
        #expect(result.verdict.matched)
        #expect(result.latency.pairs.count == 12)
    }

    @Test func deliberateStaleReadsAreTheOnlyAnomalies() {
        let trace = SyntheticTrace.generate(events: 20_000, seed: 3, staleEvery: 50)
        let result = TraceChecker.check(trace)
        #expect(!result.anomalies.isEmpty)
        #expect(Set(result.anomalies.map(\.kind)) == [.staleRead])
    }

    @Test func sameTraceChecksTheSameTwice() {
        let trace = SyntheticTrace.generate(events: 5_000, seed: 9, staleEvery: 20)
        #expect(TraceChecker.check(trace).anomalies == TraceChecker.check(trace).anomalies)
    }

    /// On a long trace the latency tracker and the later reads are judged on threads of their own: what
    /// they report, and everything else found, is what the pass in line finds.
    @Test(arguments: [UInt64(4), 11])
    func judgedApartIsJudgedInLine(seed: UInt64) {
        let trace = SyntheticTrace.generate(events: 30_000, seed: seed, staleEvery: 40)
        let inLine = TraceChecker.check(trace, apartFrom: .max)
        let (apart, threads) = TraceChecker.check(trace, apartFrom: 0)
        #expect(inLine.judgedApart == 0 && threads == 2)
        #expect(!inLine.result.anomalies.isEmpty)
        #expect(inLine.result.latency.propagations.count > 1_000)
        #expect(apart.latency == inLine.result.latency)
        #expect(apart.anomalies == inLine.result.anomalies)
        #expect(apart.refreshCosts == inLine.result.refreshCosts)
        #expect(apart.unexpectedErrors == inLine.result.unexpectedErrors)
        #expect(apart.verdict == inLine.result.verdict)
    }

    /// A failed check explained by a stale read judged on the other thread is explained, as in line: not
    /// also an unmet expectation.
    @Test(arguments: [0, Int.max])
    func aCheckExplainedByAReadJudgedApartIsExplained(apartFrom: Int) {
        let (result, threads) = TraceChecker.check(checkFailedOnAStaleRead().trace, apartFrom: apartFrom)
        #expect(threads == (apartFrom == 0 ? 2 : 0))
        #expect(kinds(result) == [.staleRead])
    }
}
