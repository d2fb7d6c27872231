import Checkers
import Foundation
import Reporters
import Runner
import Trace

/// Judges finished runs, writes their reports, prints one line each and a summary, and returns the
/// exit status (0 every run matched, 1 some did not, 2 the harness could not decide one).
struct ReportSession {
    var outcomes: [RunOutcome]
    var reportDirectory: URL

    func finish() throws -> Int32 {
        var runs: [ReportedRun] = []
        var statuses: [ExitStatus] = []
        let interrupted = outcomes.filter(\.interrupted)
        let outcomes = outcomes.filter { !$0.interrupted }
        for outcome in outcomes {
            let run = ReportedRun(checking: outcome.trace)
            runs.append(run)
            statuses.append(ExitStatus(verdict: run.result.verdict))
        }
        try ReportWriter.writeAll(runs, to: reportDirectory)
        for (outcome, run) in zip(outcomes, runs) {
            let directory = ReportWriter.directory(for: run.info, under: reportDirectory)
            try TraceFile.write(outcome.trace, to: directory.appendingPathComponent("trace.jsonl"))
            for (process, text) in outcome.stderr {
                try Data(text.utf8).write(to: directory.appendingPathComponent("\(process).stderr.txt"))
            }
            for line in ConsoleReport.lines(run.result) { print(line) }
            if let sandbox = outcome.sandbox { print("  sandbox kept at \(sandbox)") }
        }
        for outcome in interrupted {
            print("\(outcome.plan.info.scenario) / \(outcome.plan.info.variant): interrupted (no verdict; not reported)")
        }
        print(ConsoleReport.summary(runs.map(\.result)) + (interrupted.isEmpty ? "" : "; \(interrupted.count) interrupted"))
        print("Reports: \(reportDirectory.path)/index.html")
        return ExitStatus.combine(statuses).rawValue
    }
}
