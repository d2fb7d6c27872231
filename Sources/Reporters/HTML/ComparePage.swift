/// The page `groupsim compare` writes: one scenario under several refresh strategies, as a matrix
/// of anomalies, propagation latency and refresh cost, each row linking to that run's report.
public enum ComparePage {
    /// A self-contained HTML page (inline CSS, no network).
    public static func render(
        scenario: String, summary: String, runs: [ReportedRun], options: ReportOptions = ReportOptions(),
        link: (ReportedRun) -> String? = { _ in nil }
    ) -> String {
        var html = HTMLPage.open(title: "GroupSim: \(scenario) under each refresh strategy")
        html += "<header><div class=\"headline\"><h1>\(Escape.html(scenario)): refresh strategies compared</h1></div>"
        html += "<p class=\"where\">\(Escape.html(summary))</p></header>\n"
        let mode = runs.first?.info.mode == .deterministic ? " Deterministic mode: latencies are in virtual time." : ""
        html += "<p>The same steps, run once per strategy. Anomalies are what the checkers found. Refreshed is the time "
        html += "from a commit to the end of the refresh that brought it into another process; first shown, to the first "
        html += "read there showing it; never shown counts saves a live process never showed. Refresh cost is the time "
        html += "spent in refreshes, and how many ran.\(mode)</p>\n"
        let rows = CompareMatrix.rows(runs)
        html += "<p class=\"recommendation\"><strong>\(Escape.html(CompareMatrix.recommendation(rows)))</strong> "
        html += "Fewest anomalies first, then fewest saves never shown, then refreshed p99, then refresh cost.</p>\n"
        html += CompareChartSVG.render(rows)
        // Strategies are not variants: the page compares what each showed, it judges none.
        html += CompareMatrix.html(runs, judged: false, link: link)
        return html + HTMLPage.close(generatedAt: options.generatedAt)
    }
}
