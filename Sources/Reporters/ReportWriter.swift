import Checkers
import Foundation
import Trace

/// Writes reports to disk: four files per run, and an index over several runs.
///
/// ```swift
/// let runs = traces.map { ReportedRun(checking: $0) }
/// try ReportWriter.writeAll(runs, to: URL(fileURLWithPath: "Reports"))
/// // Reports/<scenario>/<variant>/{report.json, summary.md, junit.xml, report.html}
/// // Reports/{index.html, summary.md, junit.xml}
/// ```
public enum ReportWriter {
    /// The files of one run, in the order they are written.
    public static let runFiles = ["report.json", "summary.md", "junit.xml", "report.html"]
    /// The files at the top of a report directory over several runs.
    public static let indexFiles = ["index.html", "summary.md", "junit.xml"]

    /// Writes `report.json`, `summary.md`, `junit.xml` and `report.html` for `run` into `directory`
    /// (created if needed). `variants` — every run of the scenario, this one included — adds the
    /// comparison table; `link` gives a variant's report address relative to `directory`.
    public static func writeRun(
        _ run: ReportedRun, variants: [ReportedRun] = [], to directory: URL, options: ReportOptions = ReportOptions(),
        link: (ReportedRun) -> String? = { _ in nil }
    ) throws {
        try removeLinks(above: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try JSONReport.render(run, options: options).write(to: directory.appendingPathComponent("report.json"), options: .atomic)
        try write(MarkdownReport.render(run, variants: variants, options: options), to: directory.appendingPathComponent("summary.md"))
        try write(JUnitReport.render([run], options: options), to: directory.appendingPathComponent("junit.xml"))
        try write(HTMLReport.render(run, variants: variants, options: options, link: link), to: directory.appendingPathComponent("report.html"))
    }

    /// Writes every run under `root/<scenario>/<variant>/` (each with the other variants of its
    /// scenario to compare), then `index.html`, `summary.md` and one combined `junit.xml` in `root`.
    public static func writeAll(_ runs: [ReportedRun], to root: URL, options: ReportOptions = ReportOptions()) throws {
        var byScenario: [String: [ReportedRun]] = [:]
        for run in runs { byScenario[run.info.scenario, default: []].append(run) }
        for run in runs {
            let variants = byScenario[run.info.scenario] ?? [run]
            try writeRun(
                run, variants: variants, to: directory(for: run.info, under: root), options: options,
                link: { "../\(Escape.pathComponent($0.info.variant))/report.html" })
        }
        try writeIndex(runs, to: root, options: options)
    }

    /// Writes `index.html`, `summary.md` and the combined `junit.xml` of `runs` into `root`, linking to
    /// each run's directory as `writeAll` lays them out.
    public static func writeIndex(_ runs: [ReportedRun], to root: URL, options: ReportOptions = ReportOptions()) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let page: (ReportedRun) -> String = { relativeDirectory(for: $0.info) + "/report.html" }
        try write(IndexPage.render(runs, options: options, pages: otherPages(in: root), link: page),
                  to: root.appendingPathComponent("index.html"))
        try write(MarkdownReport.renderIndex(runs, options: options, link: { relativeDirectory(for: $0.info) + "/summary.md" }), to: root.appendingPathComponent("summary.md"))
        try write(JUnitReport.render(runs, options: options), to: root.appendingPathComponent("junit.xml"))
    }

    /// The comparison pages (`<scenario>/compare/compare.html`) and explore reports (`<dir>/explore.html`)
    /// under `root`, by name, as (title, address relative to `root`).
    static func otherPages(in root: URL) -> [(String, String)] {
        let manager = FileManager.default
        var pages: [(String, String)] = []
        for name in ((try? manager.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            if manager.fileExists(atPath: root.appendingPathComponent(name).appendingPathComponent("compare/compare.html").path) {
                pages.append(("\(name): refresh strategies compared", "\(name)/compare/compare.html"))
            }
            if manager.fileExists(atPath: root.appendingPathComponent(name).appendingPathComponent("explore.html").path) {
                pages.append(("explore: \(name)", "\(name)/explore.html"))
            }
        }
        return pages
    }

    /// `root/<scenario>/<variant>/`, each name made safe as a path component.
    public static func directory(for info: RunInfo, under root: URL) -> URL {
        root.appendingPathComponent(Escape.pathComponent(info.scenario), isDirectory: true)
            .appendingPathComponent(Escape.pathComponent(info.variant), isDirectory: true)
    }

    private static func relativeDirectory(for info: RunInfo) -> String {
        "\(Escape.pathComponent(info.scenario))/\(Escape.pathComponent(info.variant))"
    }

    /// A run's folder in a reused report directory may have been replaced by a symbolic link (or a link
    /// left by a checkout): the reports are written into a real folder there, never through the link.
    /// The link (not what it points to) is removed; the scenario's folder above is checked the same way.
    public static func removeLinks(above directory: URL) throws {
        let manager = FileManager.default
        for folder in [directory.deletingLastPathComponent(), directory] {
            guard let type = (try? manager.attributesOfItem(atPath: folder.path))?[.type] as? FileAttributeType,
                  type == .typeSymbolicLink else { continue }
            try manager.removeItem(atPath: folder.path)
        }
    }

    private static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
