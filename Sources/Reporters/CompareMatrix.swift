import Checkers
import Trace

/// Several runs of one scenario under different strategies, side by side: for each strategy the
/// verdict, the anomalies found, propagation (commit to refreshed p50 and p99, the headline, and commit to
/// first shown p99), and the refresh cost (time spent inside
/// refreshes, and how many). Rendered as Markdown and as an HTML table.
public enum CompareMatrix {
    /// One row of the matrix.
    public struct Row: Sendable, Hashable {
        public var label: String
        public var variant: String
        public var expected: String
        public var matched: Bool
        public var anomalies: String
        /// Commit to the refresh that brought it (the headline).
        public var p50: UInt64?
        public var p99: UInt64?
        /// Commit to the first read showing it.
        public var shownP99: UInt64?
        /// Saves another live process never showed.
        public var neverShown: Int
        public var refreshCount: Int
        public var refreshNanos: UInt64
        /// How many anomalies were found, of every kind.
        public var anomalyCount: Int
        /// Whether the harness could not run it through (never recommended).
        public var failed: Bool
    }

    /// The row to recommend: among those that ran through, the fewest anomalies, then the fewest saves
    /// never shown, then the shortest refreshed p99 (a row that never refreshed comes last), then the
    /// cheapest refreshes; the first written wins a tie. Nil when none ran through.
    public static func recommended(_ rows: [Row]) -> Row? {
        rows.enumerated().filter { !$0.element.failed }.min { a, b in
            let x = a.element, y = b.element
            let left = (x.anomalyCount, x.neverShown, x.p99 ?? .max, x.refreshNanos, a.offset)
            let right = (y.anomalyCount, y.neverShown, y.p99 ?? .max, y.refreshNanos, b.offset)
            return left < right
        }?.element
    }

    /// One sentence saying which strategy to use and why, or why none is recommended.
    public static func recommendation(_ rows: [Row]) -> String {
        guard let best = recommended(rows) else { return "No strategy ran through: nothing to recommend." }
        var reasons = [best.anomalyCount == 0 ? "no anomalies" : "the fewest anomalies (\(best.anomalies))"]
        if best.neverShown > 0 { reasons.append("\(best.neverShown) save\(best.neverShown == 1 ? "" : "s") never shown") }
        reasons.append(best.p99.map { "refreshed p99 \(DurationText.format($0))" } ?? "no refresh measured")
        reasons.append(best.refreshCount == 0 ? "no refreshes"
            : "\(DurationText.format(best.refreshNanos)) in \(best.refreshCount) refresh\(best.refreshCount == 1 ? "" : "es")")
        let ties = rows.filter { !$0.failed && $0.label != best.label && $0.anomalyCount == best.anomalyCount && $0.neverShown == best.neverShown }
        let alternatives = ties.isEmpty ? "" : "; as few anomalies: \(ties.map(\.label).joined(separator: "; ")), slower or costlier"
        return "Recommended: \(best.label) (\(reasons.joined(separator: ", "))\(alternatives))."
    }

    /// The rows, in the order the runs were given.
    public static func rows(_ runs: [ReportedRun]) -> [Row] {
        runs.map { run in
            let result = run.result
            return Row(
                label: run.label, variant: result.info.variant, expected: result.info.expected.text,
                matched: result.verdict.matched,
                anomalies: result.verdict.found.isEmpty ? "none" : result.verdict.foundText,
                p50: result.latency.refreshed?.p50, p99: result.latency.refreshed?.p99, shownP99: result.latency.shown?.p99,
                neverShown: result.latency.pairs.reduce(0) { $0 + $1.unseen },
                refreshCount: result.refreshCosts.reduce(0) { $0 + $1.count },
                refreshNanos: result.refreshCosts.reduce(0) { $0 + $1.totalNanos },
                anomalyCount: result.verdict.found.values.reduce(0) { $0.addingReportingOverflow($1).partialValue },
                failed: result.verdict.harnessFailure != nil)
        }
    }

    /// A Markdown table; the row whose variant is `highlight` is marked in bold. `judged: false` leaves
    /// out the expected and verdict columns (`compare`'s strategies are not variants with an expectation).
    public static func markdown(_ runs: [ReportedRun], highlight: String? = nil, judged: Bool = true) -> String {
        var md = judged
            ? "| strategy | expected | verdict | anomalies | refreshed p50 | refreshed p99 | first shown p99 | refresh cost |\n|---|---|---|---|---:|---:|---:|---:|\n"
            : "| strategy | anomalies | refreshed p50 | refreshed p99 | first shown p99 | refresh cost |\n|---|---|---:|---:|---:|---:|\n"
        for row in rows(runs) {
            let label = Escape.markdownCell(row.label)
            let verdict = judged ? " \(Escape.markdownCell(row.expected)) | \(row.matched ? "matched" : "NOT MATCHED") |" : ""
            md += "| \(row.variant == highlight ? "**\(label)**" : label) |\(verdict) \(Escape.markdownCell(row.anomalies)) | \(duration(row.p50)) | \(duration(row.p99)) | \(duration(row.shownP99)) | \(refresh(row)) |\n"
        }
        return md
    }

    /// An HTML `<table>` (a fragment); `link` gives each row's report address, if any.
    public static func html(_ runs: [ReportedRun], highlight: String? = nil, judged: Bool = true,
                            link: (ReportedRun) -> String? = { _ in nil }) -> String {
        let verdictHeads = judged ? "<th>expected</th><th>verdict</th>" : ""
        var html = "<table class=\"matrix\"><thead><tr><th>strategy</th>\(verdictHeads)<th>anomalies</th><th class=\"num\">refreshed p50</th><th class=\"num\">refreshed p99</th><th class=\"num\">first shown p99</th><th class=\"num\">refresh cost</th></tr></thead><tbody>\n"
        for (run, row) in zip(runs, rows(runs)) {
            let label = link(run).map { "<a href=\"\(Escape.html($0))\">\(Escape.html(row.label))</a>" } ?? Escape.html(row.label)
            html += "<tr\(row.variant == highlight ? " class=\"current\"" : "")><td>\(label)</td>"
            if judged {
                html += "<td>\(Escape.html(row.expected))</td>"
                html += "<td><span class=\"badge \(row.matched ? "ok" : "bad")\">\(row.matched ? "matched" : "NOT MATCHED")</span></td>"
            }
            html += "<td>\(Escape.html(row.anomalies))</td><td class=\"num\">\(duration(row.p50))</td><td class=\"num\">\(duration(row.p99))</td><td class=\"num\">\(duration(row.shownP99))</td><td class=\"num\">\(Escape.html(refresh(row)))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func duration(_ value: UInt64?) -> String { value.map(DurationText.format) ?? "–" }

    private static func refresh(_ row: Row) -> String {
        row.refreshCount == 0 ? "none" : "\(DurationText.format(row.refreshNanos)) in \(row.refreshCount)"
    }
}
