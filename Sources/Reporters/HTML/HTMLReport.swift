import Basics
import Checkers
import Trace

/// `report.html`: one self-contained page per run (inline CSS and SVG, no script, no network): the
/// verdict, the swim-lane timeline, every anomaly explained, latency histograms, the variants of the
/// scenario side by side, the processes and the steps.
public enum HTMLReport {
    /// The page for `run`; `variants` (every run of its scenario, this one included) adds the comparison,
    /// and `link` gives each variant's report address relative to this page.
    public static func render(
        _ run: ReportedRun, variants: [ReportedRun] = [], options: ReportOptions = ReportOptions(),
        link: (ReportedRun) -> String? = { _ in nil }
    ) -> String {
        let result = run.result, info = result.info
        let title = "\(info.scenario) / \(info.variant)"
        let filter = KeyFilter(result)
        var html = HTMLPage.open(title: "\(title): \(result.verdict.matched ? "matched" : "NOT MATCHED")", css: filter.css())
        html += header(run, options: options)
        html += filter.inputs()
        html += "<h2 id=\"timeline\">Timeline</h2>\n" + legend() + filter.bar()
        let timeline = TimelineSVG(run, filter: filter)
        html += "<div class=\"scroll\">\n" + timeline.render() + "</div>\n"
        html += closeUps(timeline)
        html += WorkloadTable.render(run)
        html += anomalies(result, filter: filter)
        html += latency(result)
        if variants.count > 1 {
            html += "<h2 id=\"variants\">Variants of \(Escape.html(info.scenario))</h2>\n"
            html += CompareMatrix.html(variants, highlight: info.variant, link: link)
        }
        html += processes(info, costs: result.refreshCosts)
        html += stores(result)
        html += steps(run)
        html += HTMLPage.close(generatedAt: options.generatedAt)
        return html
    }

    /// A close-up of each stretch where anomalies are, when the full timeline squeezes it.
    private static func closeUps(_ timeline: TimelineSVG) -> String {
        let result = timeline.run.result
        var html = ""
        for window in TimelineWindow.focus(on: result, span: timeline.model.span) {
            let numbers = window.anomalies.map { "<a href=\"#a\($0 + 1)\">\($0 + 1)</a>" }
            html += "<h3 class=\"close-up\">Close-up of anomal\(numbers.count == 1 ? "y" : "ies") \(numbers.joined(separator: ", ")): "
                + "\(DurationText.format(window.start)) to \(DurationText.format(window.end))</h3>\n"
            html += "<div class=\"scroll\">\n" + timeline.closeUp(of: window).render() + "</div>\n"
        }
        return html
    }

    private static func header(_ run: ReportedRun, options: ReportOptions) -> String {
        let result = run.result, info = result.info, verdict = result.verdict
        var html = "<header><div class=\"headline\"><h1>\(Escape.html(info.scenario)) / \(Escape.html(info.variant))</h1>"
        let badge = verdict.harnessFailure != nil ? "HARNESS ERROR" : verdict.matched ? "matched" : "NOT MATCHED"
        html += "<span class=\"badge \(verdict.matched ? "ok" : "bad")\">\(badge)</span></div>\n"
        if !info.summary.isEmpty { html += "<p class=\"summary\">\(Escape.html(info.summary))</p>\n" }
        if let failure = verdict.harnessFailure {
            html += "<p class=\"callout\"><strong>The harness could not decide this run</strong> (no verdict): \(Escape.html(failure.description))</p>\n"
        }
        for warning in result.warnings { html += "<p class=\"callout\"><strong>Warning</strong>: \(Escape.html(warning))</p>\n" }
        html += "<dl class=\"facts\">"
        html += "<dt>verdict</dt><dd>\(Escape.html(verdictSentence(result)))</dd>"
        html += "<dt>expected</dt><dd>\(Escape.html(info.expected.text))</dd>"
        html += "<dt>found</dt><dd>\(Escape.html(verdict.found.isEmpty ? "no anomalies" : verdict.foundText))</dd>"
        if !verdict.brokenCounts.isEmpty {
            html += "<dt>broken counts</dt><dd>\(Escape.html(verdict.brokenCountsText))</dd>"
        } else if !verdict.missing.isEmpty {
            html += "<dt>missing</dt><dd>\(Escape.html(verdict.missingText))</dd>"
        }
        if let refreshed = result.latency.refreshed {
            html += "<dt>refreshed</dt><dd>p50 \(DurationText.format(refreshed.p50)) · p99 \(DurationText.format(refreshed.p99)) · max \(DurationText.format(refreshed.max)) from commit to the refresh that brought it, over \(refreshed.count) save → reader pair\(refreshed.count == 1 ? "" : "s")</dd>"
        }
        if let shown = result.latency.shown {
            html += "<dt>first shown</dt><dd>p50 \(DurationText.format(shown.p50)) · p99 \(DurationText.format(shown.p99)) · max \(DurationText.format(shown.max)) from commit to the first read showing it, over \(shown.count) save → reader pair\(shown.count == 1 ? "" : "s")</dd>"
        }
        html += "<dt>run</dt><dd><code>\(Escape.html(info.file))</code> · seed \(info.seed) · \(info.mode == .deterministic ? "deterministic (virtual time)" : "real time") · \(result.eventCount) events over \(DurationText.format(result.end - result.origin))</dd>"
        html += "<dt>replay</dt><dd><code>\(Escape.html(options.replayCommand(info)))</code></dd></dl>\n"
        if let (index, first) = leadAnomaly(result) {
            let more = result.anomalies.count > 1 ? " <a href=\"#anomalies\">\(result.anomalies.count - 1) more below.</a>" : ""
            html += "<p class=\"callout\"><a class=\"num-dot\" href=\"#a\(index + 1)\">\(index + 1)</a><strong>\(Escape.html(first.kind.rawValue))</strong>: \(Escape.html(first.explanation))\(more)</p>\n"
        } else {
            html += "<p class=\"callout ok\">No anomaly found: every read showed what was committed, and every view converged.</p>\n"
        }
        return html + "</header>\n"
    }

    /// Why the run matched or not, in words.
    static func verdictSentence(_ result: CheckResult) -> String {
        let verdict = result.verdict
        switch (result.info.expected, verdict.matched) {
        case (.pass, true): return "matched: expected no anomaly and found none."
        case (.pass, false): return "NOT MATCHED: expected no anomaly but found \(verdict.foundText)."
        case (.anomalies(let names), true):
            return "matched: expected \(names.map(\.rawValue).joined(separator: ", ")) and found \(names.count == 1 ? "it" : "them"); this variant reproduces the bug."
        case (.anomalies, false):
            return "NOT MATCHED: expected \(verdict.missingText) but did not find \(verdict.missing.count == 1 ? "it" : "them")."
        case (.counts(let counts), true):
            return "matched: expected \(result.info.expected.text) and found \(verdict.found.isEmpty ? "no anomaly" : verdict.foundText)"
                + (counts.contains { $0.atLeast > 0 } ? "; this variant reproduces the bug." : ".")
        case (.counts, false):
            return "NOT MATCHED: expected \(verdict.brokenCountsText)."
        }
    }

    private static func legend() -> String {
        func swatch(_ shape: String) -> String { "<svg width=\"22\" height=\"14\" viewBox=\"0 0 22 14\">\(shape)</svg>" }
        let items = [
            (swatch("<rect width=\"22\" height=\"14\" class=\"state-active\"/>"), "running / active"),
            (swatch("<rect width=\"22\" height=\"14\" class=\"state-background\"/>"), "background"),
            (swatch("<rect width=\"22\" height=\"14\" fill=\"#e6e9f0\" stroke=\"#c5cbd8\"/>"), "suspended (hatched)"),
            (swatch("<rect width=\"22\" height=\"14\" class=\"state-not-running\" stroke=\"#d9e2ec\"/>"), "not running"),
            (swatch("<circle cx=\"11\" cy=\"7\" r=\"5\" class=\"save\"/>"), "save committed"),
            (swatch("<path d=\"M1,7 C8,0 14,0 21,7\" class=\"propagation\"/>"), "first read showing it"),
            (swatch("<path d=\"M1,7 L21,7\" class=\"missed\"/>"), "a commit the read missed"),
            (swatch("<path d=\"M6,2 L16,2 L11,10 z\" class=\"notification\"/>"), "notification received"),
            (swatch("<path d=\"M1,3 L21,11\" class=\"message\"/>"), "post → receipt (dashed: held; red: lost)"),
            (swatch("<g class=\"notification-lost\"><path d=\"M6,2 L16,2 L11,10 z\"/><path d=\"M5,0 L17,11\"/></g>"), "notification lost"),
            (swatch("<rect x=\"2\" y=\"4\" width=\"18\" height=\"7\" rx=\"2\" class=\"refresh\"/>"), "refresh"),
            (swatch("<rect x=\"9\" y=\"0\" width=\"4\" height=\"14\" class=\"read\"/>"), "read (judged)"),
            (swatch("<g class=\"read-retries\"><path d=\"M2,2 L2,12 M2,7 L20,7 M20,2 L20,12\"/></g>"), "earlier attempts of a check (×count)"),
            (swatch("<circle cx=\"11\" cy=\"7\" r=\"6\" class=\"anomaly-dot\"/>"), "anomaly (hover or click)"),
        ]
        return "<div class=\"legend\">" + items.map { "<span>\($0.0)\($0.1)</span>" }.joined() + "</div>\n"
    }

    /// The anomaly to lead with: the first of a kind the variant expects, else the first the variant
    /// did not expect, else the first; with its index in time order.
    static func leadAnomaly(_ result: CheckResult) -> (Int, Anomaly)? {
        let all = Array(result.anomalies.enumerated())
        return all.first { result.verdict.expected.kinds.contains($0.element.kind) }.map { ($0.offset, $0.element) }
            ?? all.first { result.verdict.unexpected.contains($0.element.kind) }.map { ($0.offset, $0.element) }
            ?? all.first.map { ($0.offset, $0.element) }
    }

    /// The kinds in the order the list shows them: those the variant expects first, then by first
    /// appearance; with the indices (time order, as numbered on the timeline) of each kind's anomalies.
    static func anomaliesByKind(_ result: CheckResult) -> [(AnomalyKind, [Int])] {
        var groups: [(AnomalyKind, [Int])] = []
        for (i, anomaly) in result.anomalies.enumerated() {
            if let g = groups.firstIndex(where: { $0.0 == anomaly.kind }) { groups[g].1.append(i) } else { groups.append((anomaly.kind, [i])) }
        }
        let expected = result.verdict.expected.kinds
        return groups.filter { expected.contains($0.0) } + groups.filter { !expected.contains($0.0) }
    }

    private static func anomalies(_ result: CheckResult, filter: KeyFilter) -> String {
        var html = "<h2 id=\"anomalies\">Anomalies (\(result.anomalies.count))</h2>\n"
        guard !result.anomalies.isEmpty else { return html + "<p>None found.</p>\n" }
        let groups = anomaliesByKind(result)
        let onDemand = TimelineSVG.arrowsOnDemand(result)
        // Grouped by kind, the expected kinds first; numbered in time order, as on the timeline. A kind
        // with many shows its first three and folds the rest.
        let shownPerKind = 3
        if groups.count > 1 || result.anomalies.count > shownPerKind {
            html += "<p class=\"anomaly-kinds\">" + groups.map { kind, indices in
                let expected = result.verdict.expected.kinds.contains(kind) ? " (expected)" : ""
                return "<a href=\"#kind-\(kind.rawValue)\">\(kind.rawValue) ×\(indices.count)\(expected)</a>"
            }.joined() + "</p>\n"
        }
        html += byObject(result)
        for (kind, indices) in groups {
            html += "<h3 id=\"kind-\(kind.rawValue)\">\(kind.rawValue) ×\(indices.count)</h3>\n<ol class=\"anomalies\">\n"
            for (n, i) in indices.enumerated() {
                if n == shownPerKind {
                    html += "</ol>\n<details class=\"more-anomalies\"><summary>\(indices.count - shownPerKind) more \(kind.rawValue)</summary>\n<ol class=\"anomalies\">\n"
                }
                html += anomalyItem(i, result.anomalies[i], result, onDemand: onDemand, filter: filter)
            }
            html += indices.count > shownPerKind ? "</ol>\n</details>\n" : "</ol>\n"
        }
        if !result.unexpectedErrors.isEmpty {
            html += "<h3>Other errors</h3>\n<ul>\n"
            for error in result.unexpectedErrors {
                html += "<li>\(Escape.html(error.process)) \(Escape.html(error.location ?? "")): <code>\(Escape.html(error.kind.rawValue))</code> \(Escape.html(error.message))</li>\n"
            }
            html += "</ul>\n"
        }
        return html
    }

    /// For runs whose anomalies touch several objects (workloads): each object with its anomalies by
    /// kind, linking to its first, so one key's story can be followed.
    static func byObject(_ result: CheckResult) -> String {
        var order: [String] = [], kinds: [String: [AnomalyKind: Int]] = [:], first: [String: Int] = [:]
        for (i, anomaly) in result.anomalies.enumerated() {
            guard let object = anomaly.object else { continue }
            if kinds[object] == nil { order.append(object); first[object] = i }
            kinds[object, default: [:]][anomaly.kind, default: 0] += 1
        }
        guard order.count > 3 else { return "" }
        let shown = order.prefix(60).map { object -> String in
            let text = kinds[object, default: [:]].sorted { $0.key < $1.key }
                .map { $0.value == 1 ? $0.key.rawValue : "\($0.key.rawValue) ×\($0.value)" }.joined(separator: ", ")
            return "<a href=\"#a\(first[object]! + 1)\">\(Escape.html(object))</a> (\(Escape.html(text)))"
        }
        let more = order.count > 60 ? " · and \(order.count - 60) more objects" : ""
        return "<p class=\"by-object\">By object: " + shown.joined(separator: " · ") + more + "</p>\n"
    }

    private static func anomalyItem(_ i: Int, _ anomaly: Anomaly, _ result: CheckResult, onDemand: Bool, filter: KeyFilter) -> String {
        var where_ = [anomaly.process]
        if let location = anomaly.location { where_.append("step \(anomaly.step.map(String.init) ?? "?") at \(location)") }
        where_.append("at \(DurationText.format(result.offset(anomaly.t)))")
        var html = "<li id=\"a\(i + 1)\"\(filter.attribute(anomaly.object.map { [$0] } ?? []))><span class=\"num-dot\">\(i + 1)</span><span class=\"kind\">\(anomaly.kind.rawValue)</span>"
        html += "<span class=\"where\">\(Escape.html(where_.joined(separator: " · ")))</span>"
        if onDemand, anomaly.cause != nil, i < TimelineSVG.maxAnomalies { html += " <a href=\"#t\(i + 1)\">show on the timeline</a>" }
        html += "<p class=\"explanation\">\(Escape.html(anomaly.explanation))</p>"
        if let seen = anomaly.seen, let expected = anomaly.expected {
            html += "<p class=\"step-text\">seen <code>\(Escape.html(seen))</code> · committed or expected <code>\(Escape.html(expected))</code></p>"
        }
        if let step = result.info.steps.first(where: { $0.index == anomaly.step }) {
            html += "<p class=\"step-text\">step: <code>\(Escape.html(step.text))</code></p>"
        }
        return html + "</li>\n"
    }

    private static func latency(_ result: CheckResult) -> String {
        var html = "<h2 id=\"latency\">Propagation latency</h2>\n"
        guard !result.latency.pairs.isEmpty else { return html + "<p>No save had another live reader.</p>\n" }
        html += "<p>Refreshed: from each commit to the end of the refresh that brought it into another process's context (a refresh after which a read still did not show it does not count). First shown: from the commit to the first read there showing it.</p>\n"
        html += "<table><thead><tr><th>writer → reader</th><th class=\"num\">refreshed</th><th class=\"num\">p50</th><th class=\"num\">p90</th><th class=\"num\">p99</th><th class=\"num\">max</th><th class=\"num\">not refreshed</th><th class=\"num\">first shown p50</th><th class=\"num\">p99</th><th class=\"num\">never shown</th><th class=\"num\">notified p50</th></tr></thead><tbody>\n"
        func d(_ value: UInt64?) -> String { value.map(DurationText.format) ?? "–" }
        for pair in result.latency.pairs {
            let r = pair.refreshed
            html += "<tr\(pair.unseen > 0 || pair.unrefreshed > 0 ? " class=\"flagged\"" : "")><td>\(Escape.html(pair.writer)) → \(Escape.html(pair.reader))</td><td class=\"num\">\(r?.count ?? 0)</td><td class=\"num\">\(d(r?.p50))</td><td class=\"num\">\(d(r?.p90))</td><td class=\"num\">\(d(r?.p99))</td><td class=\"num\">\(d(r?.max))</td><td class=\"num\">\(pair.unrefreshed)</td><td class=\"num\">\(d(pair.shown?.p50))</td><td class=\"num\">\(d(pair.shown?.p99))</td><td class=\"num\">\(pair.unseen)</td><td class=\"num\">\(d(pair.notified?.p50))</td></tr>\n"
        }
        html += "</tbody></table>\n"
        // A row per pair: how the latencies spread (refreshed, first shown) and how they moved over the run.
        if result.latency.pairs.count > 1 {
            html += "<div class=\"hists\">\n" + HistogramSVG.render(title: "all pairs, refreshed", summary: result.latency.refreshed, buckets: result.latency.refreshedBuckets, unseen: result.latency.pairs.reduce(0) { $0 + $1.unrefreshed }) + "\n</div>\n"
        }
        for pair in result.latency.pairs {
            html += "<div class=\"hists\">\n"
            html += HistogramSVG.render(title: "\(pair.writer) → \(pair.reader), refreshed", summary: pair.refreshed, buckets: pair.refreshedBuckets, unseen: pair.unrefreshed) + "\n"
            html += HistogramSVG.render(title: "\(pair.writer) → \(pair.reader), first shown", summary: pair.shown, buckets: pair.shownBuckets, unseen: pair.unseen) + "\n"
            let samples = result.latency.propagations.filter { $0.writer == pair.writer && $0.reader == pair.reader }
            html += LatencyScatterSVG.render(title: "\(pair.writer) → \(pair.reader), over the run", propagations: samples,
                                             origin: result.origin, span: result.end - result.origin) + "\n</div>\n"
        }
        return html
    }

    private static func processes(_ info: RunInfo, costs: [RefreshCost]) -> String {
        var html = "<h2 id=\"processes\">Processes</h2>\n<table><thead><tr><th>process</th><th>role</th><th>store</th><th>settings</th><th class=\"num\">refresh cost</th></tr></thead><tbody>\n"
        for process in info.processes {
            let settings = process.settings.keys.sorted().map { "\($0): \(process.settings[$0]!)" }.joined(separator: ", ")
            let cost = costs.first { $0.process == process.name }
            html += "<tr><td><strong>\(Escape.html(process.name))</strong></td><td>\(Escape.html(process.role.rawValue))</td><td><code>\(Escape.html(process.store))</code></td><td>\(Escape.html(settings))</td><td class=\"num\">\(cost.map { "\(DurationText.format($0.totalNanos)) in \($0.count)" } ?? "none")</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// Each store's growth: history at the end, file and `-wal` sizes, the `-wal` file's peak and the
    /// run's limits beside them.
    private static func stores(_ result: CheckResult) -> String {
        guard !result.growth.isEmpty else { return "" }
        let limits = result.info.growthLimits
        func cell(_ value: Int64, _ limit: Int64?, _ text: (Int64) -> String, note: String = "") -> String {
            let over = limit.map { value > $0 } ?? false
            let bound = limit.map { " <span class=\"limit\">/ \(Escape.html(text($0)))</span>" } ?? ""
            return "<td class=\"num\(over ? " over" : "")\">\(Escape.html(text(value)))\(bound)\(note)</td>"
        }
        let count = { (n: Int64) in String(n) }
        var html = "<h2 id=\"stores\">Stores</h2>\n<table><thead><tr><th>store</th><th class=\"num\">history transactions</th><th class=\"num\">history changes</th><th class=\"num\">file</th><th class=\"num\">-wal at the end</th><th class=\"num\">-wal at its largest</th></tr></thead><tbody>\n"
        for growth in result.growth {
            let peakStep = growth.walPeakStep.map { " <span class=\"limit\">after step \($0)</span>" } ?? ""
            html += "<tr><td><code>\(Escape.html(growth.store))</code></td>" + cell(growth.historyTransactions, limits?.historyTransactions, count)
                + cell(growth.historyChanges, limits?.historyChanges, count) + cell(growth.storeBytes, limits?.storeBytes, ByteSize.text)
                + "<td class=\"num\">\(ByteSize.text(growth.walBytes))</td>"
                + cell(growth.walPeakBytes, limits?.walBytes, ByteSize.text, note: peakStep) + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func steps(_ run: ReportedRun) -> String {
        let result = run.result
        // What the harness noted at a step (a reload the budget refused, where an intent ran, a restore).
        var notes: [Int: [String]] = [:]
        var unstepped: [String] = []
        for note in run.notes {
            if let step = note.step { notes[step, default: []].append(note.text) } else { unstepped.append("\(note.process): \(note.text)") }
        }
        var flagged: [Int: [Int]] = [:]
        for (i, anomaly) in result.anomalies.enumerated() { if let step = anomaly.step { flagged[step, default: []].append(i + 1) } }
        var html = "<h2 id=\"steps\">Steps</h2>\n<table><thead><tr><th class=\"num\">#</th><th>process</th><th>where</th><th>step</th><th>anomalies</th></tr></thead><tbody>\n"
        for step in result.info.steps {
            let marks = (flagged[step.index] ?? []).prefix(12).map { "<a class=\"num-dot\" href=\"#a\($0)\">\($0)</a>" }.joined()
            html += "<tr\(marks.isEmpty ? "" : " class=\"flagged\"")><td class=\"num\">\(step.index)</td><td>\(Escape.html(step.process ?? "–"))</td><td class=\"mono\">\(Escape.html(step.location.fileAndLine))</td><td><code>\(Escape.html(step.text))</code>\((notes[step.index] ?? []).prefix(3).map { "<div class=\"step-note\">\(Escape.html($0))</div>" }.joined())</td><td>\(marks)</td></tr>\n"
        }
        html += "</tbody></table>\n"
        if !unstepped.isEmpty {
            html += "<p class=\"step-note\">" + unstepped.prefix(20).map(Escape.html).joined(separator: "<br>") + "</p>\n"
        }
        return html
    }
}

/// The page frame every HTML report shares (the run pages, the index, `compare` and `explore`): one
/// stylesheet, one header and footer.
public enum HTMLPage {
    /// The page up to its content; `css` adds rules of this page's own (the object filter's).
    public static func open(title: String, css: String = "") -> String {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>\(Escape.html(title))</title>\n<style>\n\(HTMLStyle.css)\n\(css)</style>\n</head>\n<body>\n<main>\n"
    }

    /// The footer and the end of the page; `generatedAt` is said in the footer when given.
    public static func close(generatedAt: String?) -> String {
        let generated = generatedAt.map { " Generated \(Escape.html($0))." } ?? ""
        return "<footer>GroupSim report, schema version \(JSONReport.schemaVersion).\(generated)</footer>\n</main>\n</body>\n</html>\n"
    }
}
