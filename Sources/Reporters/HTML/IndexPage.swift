import Checkers
import Trace

/// `index.html` at the top of a report directory over several runs: how many matched, then a row per
/// run linking to its report.
public enum IndexPage {
    /// `link` gives each run's `report.html` address relative to the index.
    /// The index of `runs`; `pages` are further pages to link (strategy comparisons, explore reports), as
    /// (title, address) pairs.
    public static func render(_ runs: [ReportedRun], options: ReportOptions = ReportOptions(), pages: [(String, String)] = [],
                              link: (ReportedRun) -> String? = { _ in nil }) -> String {
        let results = runs.map(\.result)
        // No runs is no success: the badge is neutral, not green.
        let badge = results.isEmpty ? "none" : results.allSatisfy(\.verdict.matched) ? "ok" : "bad"
        var html = HTMLPage.open(title: "GroupSim: \(ConsoleReport.summary(results))")
        html += "<header><div class=\"headline\"><h1>GroupSim reports</h1><span class=\"badge \(badge)\">\(Escape.html(ConsoleReport.summary(results)))</span></div></header>\n"
        html += "<table><thead><tr><th>scenario</th><th>variant</th><th>verdict</th><th>expected</th><th>found</th><th class=\"num\">refreshed p99</th><th class=\"num\">first shown p99</th></tr></thead><tbody>\n"
        var previous: String?
        for run in runs {
            let result = run.result, info = result.info
            let variant = link(run).map { "<a href=\"\(Escape.html($0))\">\(Escape.html(info.variant))</a>" } ?? Escape.html(info.variant)
            let scenario = info.scenario == previous ? "" : "<strong>\(Escape.html(info.scenario))</strong><br><span class=\"where\">\(Escape.html(info.summary))</span>"
            previous = info.scenario
            html += "<tr\(result.verdict.matched ? "" : " class=\"flagged\"")><td>\(scenario)</td><td>\(variant)</td>"
            html += "<td><span class=\"badge \(result.verdict.matched ? "ok" : "bad")\">\(result.verdict.matched ? "matched" : "NOT MATCHED")</span></td>"
            html += "<td>\(Escape.html(info.expected.text))</td><td>\(Escape.html(result.verdict.found.isEmpty ? "none" : result.verdict.foundText))</td>"
            html += "<td class=\"num\">\(result.latency.refreshed.map { DurationText.format($0.p99) } ?? "–")</td>"
            html += "<td class=\"num\">\(result.latency.shown.map { DurationText.format($0.p99) } ?? "–")</td></tr>\n"
        }
        html += "</tbody></table>\n"
        if !pages.isEmpty {
            html += "<h2>Comparisons and explorations</h2>\n<ul>\n"
            for (title, address) in pages { html += "<li><a href=\"\(Escape.html(address))\">\(Escape.html(title))</a></li>\n" }
            html += "</ul>\n"
        }
        let unmatched = runs.filter { !$0.result.verdict.matched }
        if !unmatched.isEmpty {
            html += "<h2>Replay the runs that did not match</h2>\n<ul>\n"
            for run in unmatched { html += "<li><code>\(Escape.html(options.replayCommand(run.info)))</code></li>\n" }
            html += "</ul>\n"
        }
        return html + HTMLPage.close(generatedAt: options.generatedAt)
    }
}
