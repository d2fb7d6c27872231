import Checkers
import Foundation
import Reporters
import Runner
import Synchronization
import Trace

/// How much `run` prints for each run.
enum Verbosity: Sendable {
    /// Only runs that did not match, and the summary.
    case quiet
    /// A line per run; for one that did not match, its first anomalies and the replay command.
    case normal
    /// Also every anomaly of every run, its warnings, and where its report is.
    case verbose
}

/// Prints each run as soon as it and every run before it have finished, so the order is stable and
/// the first results appear while later runs go on: text (in colour on a terminal unless `NO_COLOR` is
/// set) or one JSON object per run.
final class RunPrinter: Sendable {
    private struct State {
        var next = 0
        var waiting: [Int: ReportedRun] = [:]
        var interrupted: [Int: RunOutcome] = [:]
    }

    private let json: Bool
    private let verbosity: Verbosity
    private let colour: Bool
    private let reportDirectory: URL
    private let state = Mutex(State())

    init(json: Bool, verbosity: Verbosity, reportDirectory: URL) {
        self.json = json
        self.verbosity = verbosity
        self.reportDirectory = reportDirectory
        colour = !json && isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// Run `index` finished; prints it and every finished run after it that waited for it.
    func finished(_ index: Int, _ outcome: RunOutcome, as run: ReportedRun?) {
        let ready: [(ReportedRun?, RunOutcome?)] = state.withLock { state in
            if let run { state.waiting[index] = run } else { state.interrupted[index] = outcome }
            var ready: [(ReportedRun?, RunOutcome?)] = []
            while state.waiting[state.next] != nil || state.interrupted[state.next] != nil {
                ready.append((state.waiting.removeValue(forKey: state.next), state.interrupted.removeValue(forKey: state.next)))
                state.next += 1
            }
            return ready
        }
        for (run, interrupted) in ready {
            // A quiet run that matched prints nothing at all, not an empty line.
            if let run, case let printed = lines(run), !printed.isEmpty { print(printed.joined(separator: "\n")) }
            if let interrupted, !json {
                print("\(interrupted.plan.info.scenario) / \(interrupted.plan.info.variant): interrupted (no verdict; not reported)")
            }
        }
        // Piped output is block-buffered: flush, so each run appears when it is done, not at the end.
        fflush(nil)
    }

    private func lines(_ run: ReportedRun) -> [String] {
        let directory = ReportWriter.directory(for: run.info, under: reportDirectory).path
        if json { return [(try? JSONReport.summaryLine(run, report: directory)) ?? "{}"] }
        let matched = run.result.verdict.matched
        if verbosity == .quiet && matched { return [] }
        var lines = ConsoleReport.lines(run.result) { ConsoleReport.replayCommand($0, invoking: Invocation.command) }
        if verbosity == .verbose {
            if matched {
                for anomaly in run.result.anomalies {
                    lines.append("  \(anomaly.kind.rawValue): \(Escape.oneLine(anomaly.explanation))")
                }
            }
            lines.append("  report: \(directory)/report.html")
        }
        if colour, !lines.isEmpty { lines[0] = paint(lines[0], matched: matched, undecided: run.result.verdict.harnessFailure != nil) }
        return lines
    }

    /// The verdict word in green, red or yellow.
    private func paint(_ line: String, matched: Bool, undecided: Bool) -> String {
        let (word, code) = undecided ? ("HARNESS ERROR", "33") : matched ? ("matched", "32") : ("NOT MATCHED", "31")
        guard let range = line.range(of: ": " + word) else { return line }
        return line.replacingCharacters(in: range, with: ": \u{1B}[\(code)m\(word)\u{1B}[0m")
    }
}
