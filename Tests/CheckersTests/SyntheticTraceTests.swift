import Checkers
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
}
