import Basics
import Checkers
import Foundation
import Reporters
import Runner
import Supervisor
import Trace

/// Writes the reports of finished runs (the runs were judged and printed as they finished), the index
/// over every run in the report directory, prints the summary, and returns the exit status (0 every run
/// matched, 1 some did not, 2 the harness could not decide one).
struct ReportSession {
    var outcomes: [RunOutcome]
    /// The runs not interrupted, judged, in the order of `outcomes`.
    var runs: [ReportedRun]
    var reportDirectory: URL
    /// With `--format json` the summary goes to stderr, leaving stdout to the runs' objects.
    var json = false
    /// The reports' replay lines start groupsim as this invocation was started, as the console's do (a
    /// release build's reports do not send a reader to make a debug build first).
    static let options = ReportOptions(replayCommand: { ConsoleReport.replayCommand($0, invoking: Invocation.command) })

    func finish() throws -> Int32 {
        let interrupted = outcomes.filter(\.interrupted)
        let finished = outcomes.filter { !$0.interrupted }
        // Each finished run's pages are on disk already (`keep`); written again, they compare it with the
        // scenario's other variants. Interrupted, the user wants out within the second: the index only.
        if ProcessGuard.interruption == nil {
            PhaseStall.point(.reporting)
            try ReportWriter.writeAll(runs, to: reportDirectory, options: Self.options)
        }
        for (outcome, run) in zip(finished, runs) {
            if let sandbox = outcome.sandbox { say("  \(run.info.scenario) / \(run.info.variant): sandbox kept at \(sandbox)") }
        }
        // The index covers every run whose trace is in the directory: this invocation's, and the other
        // scenarios' from earlier invocations (judged again from their traces), so running one file does
        // not drop the rest.
        // Interrupted: the user wants out; the index covers this invocation's runs, judged already.
        let earlier = ProcessGuard.interruption == nil ? ReportIndex.earlierRuns(in: reportDirectory, except: runs) : []
        // A run whose invocation was killed before writing its pages left its trace alone: its pages now.
        for run in earlier {
            let directory = ReportWriter.directory(for: run.info, under: reportDirectory)
            guard !FileManager.default.fileExists(atPath: directory.appendingPathComponent("report.html").path) else { continue }
            try ReportWriter.writeRun(run, to: directory, options: Self.options)
        }
        try ReportWriter.writeIndex(earlier + runs, to: reportDirectory, options: Self.options)
        say(ConsoleReport.summary(runs.map(\.result)) + (interrupted.isEmpty ? "" : "; \(interrupted.count) interrupted"))
        say("Reports: \(reportDirectory.path)/index.html")
        return ExitStatus.combine(runs.map { ExitStatus(verdict: $0.result.verdict) }).rawValue
    }

    /// Writes a finished run's trace (and its processes' stderr), then its reports, into its folder as soon
    /// as it is judged, so a runner killed before `finish()` leaves every finished run complete on disk (and
    /// the next invocation's index judges its trace again). `finish()` writes the pages again with the
    /// scenario's other variants to compare.
    static func keep(_ outcome: RunOutcome, of run: ReportedRun, under reportDirectory: URL) throws {
        let directory = ReportWriter.directory(for: run.info, under: reportDirectory)
        try ReportWriter.removeLinks(above: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try TraceFile.write(outcome.trace, to: directory.appendingPathComponent("trace.jsonl"))
        for (process, text) in outcome.stderr {
            try Data(text.utf8).write(to: directory.appendingPathComponent("\(process).stderr.txt"))
        }
        try ReportWriter.writeRun(run, to: directory, options: options)
    }

    private func say(_ line: String) {
        if json { printError(line) } else { print(line) }
    }
}

/// The runs already in a report directory, for an index that accumulates.
enum ReportIndex {
    /// Every `<scenario>/<variant>/trace.jsonl` under `root` that is not one of `current`, judged again
    /// from its trace; traces that cannot be read (another version's) are left out, with a note on stderr.
    ///
    /// What judging them again may cost is bounded, whatever the folder holds: a trace larger than
    /// `largestTrace` bytes is left out (with a note), and once the traces judged add up to `allTraces` bytes
    /// the rest are left out (one note): judging them would cost every later invocation seconds and
    /// gigabytes (long workloads' traces, or files someone left there). A `trace.jsonl` that is not a
    /// regular file (a link to something else) is left out too: the index reads only what a run wrote.
    static func earlierRuns(in root: URL, except current: [ReportedRun], largestTrace: Int = 32 << 20,
                            allTraces: Int = 64 << 20) -> [ReportedRun] {
        let taken = Set(current.map { ReportWriter.directory(for: $0.info, under: root).standardizedFileURL.path })
        let manager = FileManager.default
        var runs: [ReportedRun] = []
        var judged = 0
        var leftOut = 0
        for scenario in ((try? manager.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let scenarioURL = root.appendingPathComponent(scenario, isDirectory: true)
            for variant in ((try? manager.contentsOfDirectory(atPath: scenarioURL.path)) ?? []).sorted() {
                let directory = scenarioURL.appendingPathComponent(variant, isDirectory: true)
                let trace = directory.appendingPathComponent("trace.jsonl")
                guard !taken.contains(directory.standardizedFileURL.path),
                      let attributes = try? manager.attributesOfItem(atPath: trace.path) else { continue }
                guard attributes[.type] as? FileAttributeType == .typeRegular else {
                    printError("note: \(VisibleText.escaped(trace.path)) is not a regular file (a link?); the index reads only the "
                        + "traces runs wrote, and leaves that run out.")
                    continue
                }
                let size = (attributes[.size] as? Int) ?? 0
                guard size <= largestTrace else {
                    printError("note: \(VisibleText.escaped(trace.path)) is \(ByteSize.text(Int64(size))), more than the "
                        + "\(ByteSize.text(Int64(largestTrace))) the index judges again; the index leaves that run out (run it again to include it).")
                    continue
                }
                guard judged + size <= allTraces else {
                    leftOut += 1
                    continue
                }
                judged += size
                do {
                    runs.append(ReportedRun(checking: try TraceFile.read(from: trace)))
                } catch {
                    // Said, not silently dropped: the run disappears from the index and junit.xml.
                    printError("note: \(error); the index leaves that run out.")
                }
            }
        }
        if leftOut > 0 {
            printError("note: the earlier runs' traces in \(VisibleText.escaped(root.path)) add up to more than the "
                + "\(ByteSize.text(Int64(allTraces))) the index judges again; it leaves \(leftOut) of them out (run them again, "
                + "or use another --report-dir, to include them).")
        }
        return runs
    }
}
