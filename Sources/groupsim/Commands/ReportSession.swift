import Foundation
import Runner
import Trace

/// Judges finished runs, prints one line each and a summary, and returns the exit status.
/// (Reports and the full anomaly checkers are wired in when those layers land.)
struct ReportSession {
    var outcomes: [RunOutcome]
    var reportDirectory: URL

    func finish() throws -> Int32 {
        var matched = 0
        var status: Int32 = 0
        for outcome in outcomes {
            let name = "\(outcome.plan.info.scenario) / \(outcome.plan.info.variant)"
            if let error = outcome.harnessError {
                print("\(name): HARNESS ERROR: \(error)")
                status = 2
                continue
            }
            var failures: [String] = []
            for event in outcome.trace.events {
                if case .check(let check) = event.kind, !check.passed {
                    failures.append("\(event.process) \(check.kind) \(check.subject): expected \(check.expected) got \(check.actual)")
                }
            }
            let passes = failures.isEmpty
            if passes { matched += 1 } else { status = max(status, 1) }
            print("\(name): \(passes ? "checks passed" : "CHECKS FAILED") (\(outcome.trace.events.count) events)")
            for failure in failures { print("  \(failure)") }
            if let sandbox = outcome.sandbox { print("  sandbox: \(sandbox)") }
        }
        print("Summary: \(matched) of \(outcomes.count) runs matched")
        return status
    }
}
