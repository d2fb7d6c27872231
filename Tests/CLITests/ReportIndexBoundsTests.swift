import Foundation
import Testing
import TestSupport

/// A report folder is reused by CI, and what an earlier run (or someone else) left in it is judged again
/// for the index only within bounds: a trace too large, traces adding up to too much, and a trace that is
/// a link elsewhere are left out, each with a note (issue 35).
@Suite(.serialized, .spawnsProcesses) struct ReportIndexBoundsTests {
    @Test func whatTheIndexJudgesAgainIsBoundedAndLinksAreNotFollowed() throws {
        let cli = try CLI()
        #expect(try cli.run("run", "pass.yaml", "--report-dir", "reports").status == 0)
        let reports = cli.directory.url.appendingPathComponent("reports")
        let manager = FileManager.default
        /// A `trace.jsonl` of `megabytes` in `folder` under the scratch directory (sparse: no disk is written).
        func trace(_ folder: String, megabytes: Int) throws {
            let folder = cli.directory.url.appendingPathComponent(folder)
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("trace.jsonl")
            #expect(manager.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(megabytes) << 20)
            try handle.close()
        }
        for variant in ["a", "b", "c"] { try trace("reports/many/\(variant)", megabytes: 30) }
        try trace("reports/huge/a", megabytes: 40)
        // A link to a trace outside the folder: its size as a link says nothing of what it points at.
        let outside = cli.directory.url.appendingPathComponent("outside")
        try manager.createDirectory(at: reports.appendingPathComponent("linked/a"), withIntermediateDirectories: true)
        try trace("outside/x", megabytes: 40)
        try manager.createSymbolicLink(at: reports.appendingPathComponent("linked/a/trace.jsonl"),
                                       withDestinationURL: outside.appendingPathComponent("x/trace.jsonl"))
        let result = try cli.run("run", "pass.yaml", "--report-dir", "reports")
        #expect(result.status == 0, "\(result.transcript)")
        #expect(result.stderr.contains("huge/a/trace.jsonl is 40 MiB, more than the 32 MiB the index judges again"), "\(result.transcript)")
        #expect(result.stderr.contains("linked/a/trace.jsonl is not a regular file"), "\(result.transcript)")
        #expect(result.stderr.contains("add up to more than the 64 MiB the index judges again; it leaves 1 of them out"),
                "\(result.transcript)")
    }
}
