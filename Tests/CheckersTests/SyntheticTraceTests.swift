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

    /// A long trace's latency tracker runs on a thread of its own: what it reports, and everything else
    /// found, is what the pass in line finds.
    @Test(arguments: [UInt64(4), 11])
    func latencyTrackedApartIsLatencyTrackedInLine(seed: UInt64) {
        let trace = SyntheticTrace.generate(events: 30_000, seed: seed, staleEvery: 40)
        let inLine = TraceChecker.check(trace, apartFrom: .max)
        let apart = TraceChecker.check(trace, apartFrom: 0)
        #expect(!inLine.anomalies.isEmpty)
        #expect(inLine.latency.propagations.count > 1_000)
        #expect(apart.latency == inLine.latency)
        #expect(apart.anomalies == inLine.anomalies)
        #expect(apart.refreshCosts == inLine.refreshCosts)
        #expect(apart.unexpectedErrors == inLine.unexpectedErrors)
        #expect(apart.verdict == inLine.verdict)
    }
}
