import Checkers
import Trace

/// One checked run, as every reporter takes it: the trace (for the timeline) and what the checkers
/// concluded.
public struct ReportedRun: Sendable {
    public var trace: RunTrace
    public var result: CheckResult
    /// What the run is called in comparisons (a strategy's name); the variant unless given.
    public var label: String

    public init(trace: RunTrace, result: CheckResult, label: String? = nil) {
        self.trace = trace
        self.result = result
        self.label = label ?? trace.info.variant
    }

    /// Checks `trace` and wraps the outcome.
    public init(checking trace: RunTrace, label: String? = nil) {
        self.init(trace: trace, result: TraceChecker.check(trace), label: label)
    }

    public var info: RunInfo { result.info }
}

/// What reports may print besides the runs themselves. Nothing here is read from the environment, so
/// the same runs always render the same bytes.
public struct ReportOptions: Sendable {
    /// A timestamp to print (e.g. ISO 8601), or nil for none.
    public var generatedAt: String?
    /// The command that replays a run; by default `swift run groupsim run <file> --variant <v> --seed <n>`.
    public var replayCommand: @Sendable (RunInfo) -> String

    public init(generatedAt: String? = nil, replayCommand: @escaping @Sendable (RunInfo) -> String = ConsoleReport.replayCommand) {
        self.generatedAt = generatedAt
        self.replayCommand = replayCommand
    }
}

extension ReportedRun {
    /// What the harness noted during the run (a reload the budget refused, where an intent ran, a
    /// restore, a history token started again), with the step it was noted at, if any, in time order.
    public var notes: [(step: Int?, process: String, text: String)] {
        trace.events.compactMap { event in
            if case .note(let text) = event.kind, event.process != "runner" || event.step != nil || !text.hasPrefix("run started") {
                return (event.step, event.process, text)
            }
            return nil
        }
    }
}
