import Basics
import Foundation
import Reporters

/// What an explore found, for every variant explored: written as `explore.json` (what `--merge` reads),
/// `explore.md`, `explore.html` and `junit.xml` (a counterexample is a failure).
public struct ExploreReport: Sendable, Codable {
    public var schemaVersion = 2
    /// The first seed and the shards whose results this holds (`1/1` for one machine).
    public var firstSeed: UInt64
    public var shards: [String]
    /// How the schedules were chosen (`random`, `pct (depth 3)`, `exhaustive`).
    public var strategy: String = ExploreStrategy.random.description
    /// Whether a counterexample that reproduces only in the deterministic mode fails the explore (`--strict`).
    public var strict = false
    public var variants: [VariantExploration]

    public init(firstSeed: UInt64, shards: [String], variants: [VariantExploration],
                strategy: ExploreStrategy = .random, strict: Bool = false) {
        self.firstSeed = firstSeed
        self.shards = shards
        self.variants = variants
        self.strategy = strategy.description
        self.strict = strict
    }

    /// The shards' reports as one: schedules and counts added per variant, counterexamples joined.
    public static func merge(_ reports: [ExploreReport]) -> ExploreReport {
        var order: [String] = []
        var byKey: [String: VariantExploration] = [:]
        for report in reports {
            for variant in report.variants {
                let key = "\(variant.scenario)\u{0}\(variant.variant)"
                guard var merged = byKey[key] else {
                    order.append(key)
                    byKey[key] = variant
                    continue
                }
                merged.schedules += variant.schedules
                merged.undecided += variant.undecided
                merged.failing += variant.failing
                merged.invalidated += variant.invalidated
                merged.found.merge(variant.found, uniquingKeysWith: +)
                merged.counterexamples += variant.counterexamples
                merged.replayed += variant.replayed
                merged.replayedIdentically += variant.replayedIdentically
                if let a = merged.coverage, let b = variant.coverage {
                    // Shards try disjoint seeds; their distinct schedules may still meet.
                    merged.coverage = ExploreCoverage(distinct: a.distinct + b.distinct, estimated: max(a.estimated, b.estimated),
                                                      complete: a.complete || b.complete, choicePoints: a.choicePoints)
                }
                byKey[key] = merged
            }
        }
        var merged = ExploreReport(firstSeed: reports.map(\.firstSeed).min() ?? 1, shards: reports.flatMap(\.shards).sorted(),
                                   variants: order.compactMap { byKey[$0] })
        merged.strategy = reports.first?.strategy ?? merged.strategy
        merged.strict = reports.contains { $0.strict }
        return merged
    }

    /// Whether any variant has a counterexample.
    public var foundCounterexamples: Bool { variants.contains { !$0.counterexamples.isEmpty } }
    /// Whether some variant fails: a schedule that did not match and no file pins, or a counterexample that
    /// reproduces in real time at least once (any counterexample with `strict`).
    public var foundFailures: Bool { variants.contains { $0.fails(strict: strict) } }
    /// Whether a schedule run twice gave two traces: the deterministic mode is not deterministic here.
    public var nondeterministic: Bool { variants.contains { $0.replayedIdentically < $0.replayed } }
    /// Whether some variant had no schedule the harness could carry through (nothing was decided).
    public var undecidedVariants: Bool { variants.contains { $0.schedules == 0 && $0.undecided > 0 } }

    /// One line per variant: `scenario / variant: 200 schedules, none found` or what was found, then one
    /// line per counterexample with how often it reproduces in real time.
    public var consoleLines: [String] {
        variants.flatMap { variant -> [String] in
            let head = "\(variant.scenario) / \(variant.variant): \(variant.schedules) schedule\(variant.schedules == 1 ? "" : "s")"
                + (variant.coverage.map { " (\($0.text))" } ?? "")
            guard variant.failing > 0 else { return [head + ", none found" + Self.undecidedNote(variant)] }
            let line = head + ", \(variant.failing) not matching its expect (\(variant.expected.text)): " + Self.foundText(variant)
                + (variant.failsEverySchedule ? Self.everySchedule
                    : variant.counterexamples.isEmpty ? " (no counterexample: written as a file, no failing schedule failed the same way)" : "")
                + Self.undecidedNote(variant)
            return [line] + variant.counterexamples.map { "  -> \($0.file) (\($0.stepsAfter) steps): \($0.reproductionText)" }
        }
    }

    /// Said of a variant that failed in every schedule.
    static let everySchedule = " (every schedule: the file fails as written, whatever the order; check its expect with groupsim run, no counterexample is written)"

    static func undecidedNote(_ variant: VariantExploration) -> String {
        var notes: [String] = []
        if variant.undecided > 0 { notes.append("\(variant.undecided) undecided") }
        if variant.invalidated > 0 { notes.append("\(variant.invalidated) with a check the perturbation invalidated") }
        if variant.replayedIdentically < variant.replayed {
            notes.append("NOT DETERMINISTIC: \(variant.replayed - variant.replayedIdentically) of \(variant.replayed) schedules run again gave another trace")
        }
        return notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
    }

    static func foundText(_ variant: VariantExploration) -> String {
        variant.found.isEmpty ? "no anomalies"
            : variant.found.keys.sorted().map { "\($0) ×\(variant.found[$0]!)" }.joined(separator: ", ")
    }

    /// Writes the four files into `directory`.
    public func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: directory.appendingPathComponent("explore.json"), options: .atomic)
        try Data(markdown().utf8).write(to: directory.appendingPathComponent("explore.md"), options: .atomic)
        try Data(html().utf8).write(to: directory.appendingPathComponent("explore.html"), options: .atomic)
        try Data(junit().utf8).write(to: directory.appendingPathComponent("junit.xml"), options: .atomic)
    }

    /// The summary table across variants, then each counterexample.
    public func markdown() -> String {
        var md = "# Explore\n\nStrategy \(strategy); first seed \(firstSeed), shards \(shards.joined(separator: ", "))"
            + (strict ? "; strict (a deterministic-only counterexample fails)" : "") + ".\n\n"
        md += "| scenario | variant | expects | schedules | undecided | coverage | replayed identically | not matching | anomalies (schedules) | counterexamples |\n"
        md += "|---|---|---|---:|---:|---|---:|---:|---|---|\n"
        for variant in variants {
            let cell = Escape.markdownCell
            md += "| \(cell(variant.scenario)) | \(cell(variant.variant)) | \(cell(variant.expected.text)) | \(variant.schedules) | \(variant.undecided) "
                + "| \(cell(variant.coverage?.text ?? "")) | \(variant.replayedIdentically) of \(variant.replayed) "
                + "| \(variant.failing) | \(cell(Self.foundText(variant))) | \(variant.failsEverySchedule ? "none: every schedule fails, the file as written" : String(variant.counterexamples.count)) |\n"
        }
        for variant in variants where !variant.counterexamples.isEmpty {
            md += "\n## \(variant.scenario) / \(variant.variant)\n\n"
            for example in variant.counterexamples {
                md += "- `\(example.file)`: \(example.kind == .unexpectedAnomaly ? "shows" : "does not show") "
                    + "\(example.anomaly.rawValue) (schedule seed \(example.seed), \(example.stepsBefore) → \(example.stepsAfter) steps; "
                    + "\(example.reproductionText)). \(Escape.markdownCell(example.explanation))\n"
            }
        }
        return md
    }

    /// A testsuite per scenario, a testcase per variant; each counterexample a failure.
    public func junit() -> String {
        var byScenario: [String: [VariantExploration]] = [:]
        var order: [String] = []
        for variant in variants {
            if byScenario[variant.scenario] == nil { order.append(variant.scenario) }
            byScenario[variant.scenario, default: []].append(variant)
        }
        let failures = variants.filter { $0.fails(strict: strict) }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"groupsim explore\" tests=\"\(variants.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for scenario in order {
            let cases = byScenario[scenario] ?? []
            xml += "  <testsuite name=\"\(Escape.xmlAttribute(scenario))\" tests=\"\(cases.count)\" failures=\"\(cases.filter { $0.fails(strict: strict) }.count)\" errors=\"0\">\n"
            for variant in cases {
                xml += "    <testcase classname=\"\(Escape.xmlAttribute(scenario))\" name=\"\(Escape.xmlAttribute(variant.variant))\">\n"
                if variant.failsEverySchedule {
                    xml += "      <failure message=\"\(Escape.xmlAttribute("every schedule (\(variant.failing)) did not match \(variant.expected.text): the file fails as written"))\" type=\"every-schedule\"/>\n"
                } else if variant.failing > 0, variant.counterexamples.isEmpty {
                    xml += "      <failure message=\"\(Escape.xmlAttribute("\(variant.failing) schedules did not match \(variant.expected.text); none could be written as a file that fails the same way"))\" type=\"unpinned\"/>\n"
                }
                for example in variant.counterexamples where strict || example.realTimeReproductions > 0 {
                    xml += "      <failure message=\"\(Escape.xmlAttribute(example.explanation))\" type=\"\(example.kind.rawValue)\">"
                        + "\(Escape.xml("schedule seed \(example.seed); shrunk to \(example.file); \(example.reproductionText)"))</failure>\n"
                }
                let deterministicOnly = variant.counterexamples.filter { !strict && $0.realTimeReproductions == 0 }
                    .map { "\($0.file): \($0.reproductionText)" }
                xml += "      <system-out>\(Escape.xml((["\(variant.schedules) schedules; \(Self.foundText(variant))"] + deterministicOnly).joined(separator: "\n")))</system-out>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// A self-contained page: the table, and each counterexample with links to its file and its timeline.
    public func html() -> String {
        let found = variants.reduce(0) { $0 + $1.counterexamples.count }
        let verdict = found == 0 ? "no counterexample" : "\(found) counterexample\(found == 1 ? "" : "s")"
        var page = HTMLPage.open(title: "GroupSim explore: \(verdict)")
        page += "<header><div class=\"headline\"><h1>GroupSim explore</h1><span class=\"badge \(variants.isEmpty ? "none" : found == 0 ? "ok" : "bad")\">"
            + "\(Escape.html(verdict))</span></div>\n"
        page += "<p class=\"summary\">Strategy \(Escape.html(strategy)); first seed \(firstSeed); shards \(Escape.html(shards.joined(separator: ", "))).</p></header>\n"
        page += "<table><thead><tr><th>scenario</th><th>variant</th><th>expects</th><th class=\"num\">schedules</th>"
            + "<th class=\"num\">undecided</th><th>coverage</th>"
            + "<th class=\"num\">replayed identically</th><th class=\"num\">not matching</th><th>anomalies (schedules)</th><th>counterexamples</th></tr></thead><tbody>\n"
        for variant in variants {
            let status = variant.counterexamples.isEmpty ? "<span class=\"badge ok\">none</span>" : "<span class=\"badge bad\">\(variant.counterexamples.count)</span>"
            page += "<tr\(variant.counterexamples.isEmpty ? "" : " class=\"flagged\"")><td>\(Escape.html(variant.scenario))</td><td>\(Escape.html(variant.variant))</td><td>\(Escape.html(variant.expected.text))</td>"
                + "<td class=\"num\">\(variant.schedules)</td><td class=\"num\">\(variant.undecided)</td><td>\(Escape.html(variant.coverage?.text ?? ""))</td>"
                + "<td class=\"num\">\(variant.replayedIdentically) of \(variant.replayed)</td><td class=\"num\">\(variant.failing)</td><td>\(Escape.html(Self.foundText(variant)))</td><td>\(status)</td></tr>\n"
        }
        page += "</tbody></table>\n"
        for variant in variants where !variant.counterexamples.isEmpty {
            page += "<h2>\(Escape.html(variant.scenario)) / \(Escape.html(variant.variant))</h2>\n<ul>\n"
            for example in variant.counterexamples {
                let report = String(example.file.dropLast(".yaml".count)) + "/report.html"
                page += "<li><a href=\"\(Escape.html(example.file))\"><code>\(Escape.html(example.file))</code></a> "
                    + "(<a href=\"\(Escape.html(report))\">timeline</a>): \(example.kind == .unexpectedAnomaly ? "shows" : "does not show") "
                    + "<strong>\(Escape.html(example.anomaly.rawValue))</strong>; schedule seed \(example.seed); "
                    + "\(example.stepsBefore) → \(example.stepsAfter) steps; \(Escape.html(example.reproductionText)).<br>\(Escape.html(example.explanation))</li>\n"
            }
            page += "</ul>\n"
        }
        return page + HTMLPage.close(generatedAt: nil)
    }
}
