import Basics
import Checkers
import Trace

/// The lines the CLI prints while and after it runs scenarios (pure: the CLI prints them).
///
/// ```
/// refresh-with-infinite-staleness / stale-cache: matched  stale-read ×1  first shown p99 12.3 ms
/// refresh-with-infinite-staleness / fresh-cache: NOT MATCHED  stale-read ×1 (expected pass)  refreshed p99 0.9 ms, first shown p99 4.1 ms
///   replay: swift run groupsim run Scenarios/refresh.yaml --variant fresh-cache --seed 7
/// Summary: 1 of 2 runs matched
/// ```
public enum ConsoleReport {
    /// One line per run: `scenario / variant: matched | NOT MATCHED`, anomaly names with counts, p99.
    public static func line(_ result: CheckResult) -> String {
        let verdict = result.verdict
        let name = "\(Escape.oneLine(result.info.scenario, limit: 200)) / \(Escape.oneLine(result.info.variant, limit: 200))"
        if let failure = verdict.harnessFailure {
            return "\(name): HARNESS ERROR: \(Escape.oneLine(failure.description))"
        }
        var line = "\(name): \(verdict.matched ? "matched" : "NOT MATCHED")"
        line += "  " + (verdict.found.isEmpty ? "no anomalies" : verdict.foundText)
        if !verdict.matched {
            if !verdict.brokenCounts.isEmpty {
                line += " (expected \(verdict.brokenCountsText))"
            } else {
                line += verdict.missing.isEmpty ? " (expected \(result.info.expected.text))" : " (missing \(verdict.missingText))"
            }
        }
        line += latencyText(result.latency)
        // Deterministic runs measure virtual time: say so wherever a time is shown.
        if result.info.mode == .deterministic && !latencyText(result.latency).isEmpty { line += " (virtual time)" }
        return line
    }

    /// `  refreshed p99 X, first shown p99 Y`: the headline (commit to the refresh that brought the save
    /// into the reader's context), then when a read first showed it; either left out when nothing measured it.
    /// With several writer → reader pairs, the headline pair's alone, named: one whose saves never
    /// reached the reader (`share → app never refreshed`, said even when it is the only pair), else the
    /// slowest.
    static func latencyText(_ latency: LatencyReport) -> String {
        var parts: [String] = []
        var refreshed = latency.refreshed, shown = latency.shown
        var prefix = ""
        if let pair = latency.headlinePair, latency.pairs.count > 1 || (pair.refreshed == nil && pair.unrefreshed > 0) {
            prefix = "\(Escape.oneLine(pair.writer)) → \(Escape.oneLine(pair.reader)) "
            refreshed = pair.refreshed
            shown = pair.shown
            if refreshed == nil && pair.unrefreshed > 0 { parts.append("never refreshed") }
        }
        if let refreshed { parts.append("refreshed p99 \(DurationText.format(refreshed.p99))") }
        if let shown { parts.append("first shown p99 \(DurationText.format(shown.p99))") }
        return parts.isEmpty ? "" : "  " + prefix + parts.joined(separator: ", ")
    }

    /// The lines for a run: its line, and for an unmatched run what to run to replay it.
    public static func lines(_ result: CheckResult, replay: (RunInfo) -> String = replayCommand) -> [String] {
        var lines = [line(result)]
        for warning in result.warnings { lines.append("  warning: \(Escape.oneLine(warning))") }
        // A step that failed with no anomaly to show for it (an update of an object not found, say): the run
        // may still match, and the console says so rather than leaving it to the reports.
        for error in result.unexpectedErrors.prefix(3) {
            lines.append("  other error: \(error.location.map { "\(Escape.oneLine($0)): " } ?? "")\(Escape.oneLine(error.process)) "
                + "\(error.kind.rawValue): \(Escape.oneLine(error.message))")
        }
        let moreErrors = result.unexpectedErrors.count - 3
        if moreErrors > 0 { lines.append("  … and \(moreErrors) more \(moreErrors == 1 ? "error" : "errors")") }
        if !result.verdict.matched && result.verdict.harnessFailure == nil {
            for anomaly in result.anomalies.prefix(3) {
                lines.append("  \(anomaly.location.map { "\(Escape.oneLine($0)): " } ?? "")\(anomaly.kind.rawValue): \(Escape.oneLine(anomaly.explanation))")
            }
            let more = result.anomalies.count - 3
            if more > 0 { lines.append("  … and \(more) more \(more == 1 ? "anomaly" : "anomalies")") }
        }
        if !result.verdict.matched { lines.append("  replay: \(Escape.oneLine(replay(result.info)))") }
        return lines
    }

    /// `Summary: M of N runs matched`; `Summary: no runs` when there were none (nothing matched, nothing
    /// failed: not a success to show in green).
    public static func summary(_ results: [CheckResult]) -> String {
        guard !results.isEmpty else { return "Summary: no runs" }
        let matched = results.count { $0.verdict.matched }
        let undecided = results.count { $0.verdict.harnessFailure != nil }
        return "Summary: \(matched) of \(results.count) run\(results.count == 1 ? "" : "s") matched"
            + (undecided == 0 ? "" : "; \(undecided) undecided (harness error)")
    }

    /// The command that replays a run exactly: `swift run groupsim run <file> --variant <v> --seed <n>`.
    @Sendable
    public static func replayCommand(_ info: RunInfo) -> String {
        replayCommand(info, invoking: "swift run groupsim")
    }

    /// The same, starting groupsim as `invoking` says (`.build/release/groupsim`, `swift run -c release
    /// groupsim`): the console's line replays with the build the user ran, not a debug build to make.
    public static func replayCommand(_ info: RunInfo, invoking: String) -> String {
        "\(invoking) run \(shellQuoted(info.file)) --variant \(shellQuoted(info.variant)) --seed \(info.seed)"
            + (info.mode == .deterministic ? " --deterministic" : "")
    }

    /// Quotes a word for a POSIX shell when it needs it.
    public static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=+,@".contains($0) }
        guard !plain else { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
