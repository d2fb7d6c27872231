import ArgumentParser
import Checkers
import Trace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `groupsim bench checkers`: checks synthetic traces of 1M and 2M events and prints the times.
/// Targets: 1M events in at most 1 s of wall time, and 2M in at most 2.1 times the 1M time (the checkers
/// are linear). Prints wall time and this process's CPU time (of every thread: a long trace is checked on
/// three), which is the steadier of the two on a machine shared with other builds.
struct CheckersBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkers",
        abstract: "Check synthetic traces of 1M and 2M events and print how long it took."
    )

    @Option(help: "Trace sizes to check, in events.")
    var events: [Int] = [1_000_000, 2_000_000]

    @Option(help: "Seed of the synthetic traces.")
    var seed: UInt64 = 1

    @Option(help: "Times to check each trace (the best time is kept).")
    var repeats: Int = 2

    func validate() throws {
        guard !events.isEmpty, events.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("Give at least one trace size, each a positive number of events.")
        }
        guard repeats > 0 else { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() throws {
        let clock = ContinuousClock()
        var times: [(events: Int, seconds: Double, cpu: Double)] = []
        for size in events {
            var trace: RunTrace?
            let generation = clock.measure { trace = SyntheticTrace.generate(events: size, seed: seed, staleEvery: 10_000) }
            var best = Double.infinity, bestCPU = Double.infinity
            var result: CheckResult?
            for _ in 0..<repeats {
                // The previous check's result is freed before the clock starts: freeing it (a long run's
                // hundreds of thousands of propagations) is no part of checking.
                result = nil
                let cpuBefore = Self.cpuSeconds()
                let elapsed = clock.measure { result = TraceChecker.check(trace!) }
                best = min(best, seconds(elapsed))
                bestCPU = min(bestCPU, Self.cpuSeconds() - cpuBefore)
            }
            let checked = result!
            times.append((trace!.events.count, best, bestCPU))
            print("checkers: \(trace!.events.count) events checked in \(format(best)) s wall, \(format(bestCPU)) s CPU "
                + "(\(Int(Double(trace!.events.count) / best)) events/s; generated in \(format(seconds(generation))) s); "
                + "\(checked.anomalies.count) anomalies, \(checked.latency.propagations.count) propagations")
        }
        if times.count >= 2 {
            let scale = Double(times[1].events) / Double(times[0].events)
            print("checkers: \(times[1].events) / \(times[0].events) events: \(format(times[1].seconds / times[0].seconds))x the wall time, "
                + "\(format(times[1].cpu / times[0].cpu))x the CPU time, for \(format(scale))x the events")
        }
    }

    /// CPU time this process has used, in seconds.
    private static func cpuSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
