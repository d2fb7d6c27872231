import Basics
import Checkers
import Trace

/// `summary.md`: what a person reads in a pull request or a CI log — the verdict, every anomaly with
/// its step and explanation, propagation latency, refresh cost, and the variants side by side.
public enum MarkdownReport {
    /// The summary of one run; `variants` (every run of its scenario, this one included) adds the comparison.
    public static func render(_ run: ReportedRun, variants: [ReportedRun] = [], options: ReportOptions = ReportOptions()) -> String {
        let result = run.result, info = result.info
        let headline = result.verdict.harnessFailure != nil ? "HARNESS ERROR" : result.verdict.matched ? "matched" : "NOT MATCHED"
        var md = "# \(inline(info.scenario)) / \(inline(info.variant)): \(headline)\n\n"
        if !info.summary.isEmpty { md += "> \(inline(info.summary))\n\n" }
        if let failure = result.verdict.harnessFailure {
            md += "**The harness could not decide this run** (no verdict): \(inline(failure.description))\n\n"
        }
        for warning in result.warnings { md += "**Warning:** \(inline(warning))\n\n" }
        md += "- Expected: \(inline(info.expected.text))\n"
        md += "- Found: \(result.verdict.found.isEmpty ? "no anomalies" : inline(result.verdict.foundText))\n"
        if !result.verdict.brokenCounts.isEmpty {
            md += "- Broken counts: \(inline(result.verdict.brokenCountsText))\n"
        } else if !result.verdict.missing.isEmpty {
            md += "- Missing: \(inline(result.verdict.missingText))\n"
        }
        md += "- Scenario: `\(code(info.file))`, seed \(info.seed), \(info.mode.rawValue)\(info.mode == .deterministic ? " (virtual time)" : ""), \(result.eventCount) events over \(DurationText.format(result.end - result.origin))\n"
        md += "- Replay: `\(code(options.replayCommand(info)))`\n"
        if let generatedAt = options.generatedAt { md += "- Generated: \(inline(generatedAt))\n" }
        md += "\n" + anomalies(result)
        md += "\n" + latency(result)
        if !result.refreshCosts.isEmpty {
            md += "\n## Refresh cost\n\n| process | refreshes | total time |\n|---|---:|---:|\n"
            for cost in result.refreshCosts {
                md += "| \(cell(cost.process)) | \(cost.count) | \(DurationText.format(cost.totalNanos)) |\n"
            }
        }
        if !result.growth.isEmpty {
            md += "\n## Stores\n\n| store | history transactions | history changes | file | -wal at the end | -wal at its largest |\n|---|---:|---:|---:|---:|---:|\n"
            for growth in result.growth {
                md += "| \(cell(growth.store)) | \(growth.historyTransactions) | \(growth.historyChanges) | \(ByteSize.text(growth.storeBytes)) | "
                    + "\(ByteSize.text(growth.walBytes)) | \(ByteSize.text(growth.walPeakBytes))\(growth.walPeakStep.map { " (after step \($0))" } ?? "") |\n"
            }
        }
        if !run.notes.isEmpty {
            md += "\n## Notes\n\n"
            for note in run.notes.prefix(50) {
                md += "- \(note.step.map { "step \($0), " } ?? "")\(inline(note.process)): \(inline(note.text))\n"
            }
        }
        if !result.unexpectedErrors.isEmpty {
            md += "\n## Other errors\n\n| process | step | at | error |\n|---|---|---:|---|\n"
            for error in result.unexpectedErrors {
                md += "| \(cell(error.process)) | \(cell(error.location ?? "")) | \(DurationText.format(result.offset(error.t))) | \(cell(error.kind.rawValue)): \(cell(error.message)) |\n"
            }
        }
        if variants.count > 1 {
            md += "\n## Variants\n\n" + CompareMatrix.markdown(variants, highlight: info.variant)
        }
        return md
    }

    /// The top-level `summary.md` of several runs: one table row per run, then each unmatched run's anomalies.
    public static func renderIndex(_ runs: [ReportedRun], options: ReportOptions = ReportOptions(), link: (ReportedRun) -> String? = { _ in nil }) -> String {
        let results = runs.map(\.result)
        var md = "# GroupSim reports\n\n\(ConsoleReport.summary(results)).\n"
        if let generatedAt = options.generatedAt { md += "Generated: \(inline(generatedAt))\n" }
        md += "\n| scenario | variant | verdict | expected | found | refreshed p99 | first shown p99 |\n|---|---|---|---|---|---:|---:|\n"
        for run in runs {
            let result = run.result
            let name = link(run).map { "[\(cell(result.info.variant))](\($0))" } ?? cell(result.info.variant)
            md += "| \(cell(result.info.scenario)) | \(name) | \(result.verdict.matched ? "matched" : "**NOT MATCHED**") | \(cell(result.info.expected.text)) | \(cell(result.verdict.foundText.isEmpty ? "none" : result.verdict.foundText)) | \(result.latency.refreshed.map { DurationText.format($0.p99) } ?? "–") | \(result.latency.shown.map { DurationText.format($0.p99) } ?? "–") |\n"
        }
        for run in runs where !run.result.verdict.matched {
            md += "\n## \(inline(run.info.scenario)) / \(inline(run.info.variant))\n\n"
            md += "Replay: `\(code(options.replayCommand(run.info)))`\n\n"
            md += anomalies(run.result, heading: false)
        }
        return md
    }

    static func anomalies(_ result: CheckResult, heading: Bool = true) -> String {
        var md = heading ? "## Anomalies\n\n" : ""
        guard !result.anomalies.isEmpty else { return md + "None found.\n" }
        md += "| # | anomaly | process | step | at | explanation |\n|---:|---|---|---|---:|---|\n"
        for (index, anomaly) in result.anomalies.enumerated() {
            md += "| \(index + 1) | \(anomaly.kind.rawValue) | \(cell(anomaly.process)) | \(cell(anomaly.location ?? "")) | \(DurationText.format(result.offset(anomaly.t))) | \(cell(anomaly.explanation)) |\n"
        }
        return md
    }

    static func latency(_ result: CheckResult) -> String {
        var md = "## Propagation latency\n\n"
        guard !result.latency.pairs.isEmpty else { return md + "No save had another live reader.\n" }
        md += "Per writer → reader: commit to the end of the refresh that brought the save into the reader's context (the headline), and commit to the first read showing it.\n\n"
        md += "| writer → reader | refreshed | p50 | p90 | p99 | max | not refreshed | first shown p50 | p99 | never shown | notified p50 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for pair in result.latency.pairs {
            let r = pair.refreshed
            func d(_ value: UInt64?) -> String { value.map(DurationText.format) ?? "–" }
            md += "| \(cell(pair.writer)) → \(cell(pair.reader)) | \(r?.count ?? 0) | \(d(r?.p50)) | \(d(r?.p90)) | \(d(r?.p99)) | \(d(r?.max)) | \(pair.unrefreshed) | \(d(pair.shown?.p50)) | \(d(pair.shown?.p99)) | \(pair.unseen) | \(d(pair.notified?.p50)) |\n"
        }
        return md
    }

    /// Text outside tables: HTML made inert, one line.
    static func inline(_ text: String) -> String { Escape.markdownCell(text) }
    static func cell(_ text: String) -> String { Escape.markdownCell(text) }
    /// Text inside a code span: backticks would end it.
    static func code(_ text: String) -> String { Escape.oneLine(String(text.map { $0 == "`" ? "'" : $0 }), limit: .max) }
}
