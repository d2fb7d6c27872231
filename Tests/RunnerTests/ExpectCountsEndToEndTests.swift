import Basics
import Checkers
import Foundation
import Reporters
import Testing
import TestSupport

/// Exact and forbidding expectations, run end to end on bug 1 (one stale read, one unconverged view).
@Suite(.serialized, .spawnsProcesses) struct ExpectCountsEndToEndTests {
    static let yaml = """
        summary: The app refreshes at staleness -1 after the share extension saves and keeps the old title.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: staleness, staleness: -1, trigger: darwin }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { read: n1, expect: { title: B }, within: 1s }
        variants:
          exactly-one:       { expect: { stale-read: 1 } }
          one-and-no-busy:   { expect: { stale-read: 1+, busy: 0 } }
          two-expected:      { expect: { stale-read: 2 } }
          none-allowed:      { expect: { not-converged: 0 } }
          in-the-app:        { expect: { stale-read: { app: 1, share: 0 } } }
          in-the-share:      { expect: { stale-read: { share: 1 } } }
        """

    private func verdict(_ variant: String) throws -> Verdict {
        TraceChecker.check(try RunHarness.single(Self.yaml, variant: variant, mode: .deterministic).trace).verdict
    }

    @Test func exactAndForbiddingCountsMatchWhatTheRunShowed() throws {
        #expect(try verdict("exactly-one").matched)
        #expect(try verdict("one-and-no-busy").matched)
    }

    @Test func aCountPerProcessCountsWhereTheAnomalyWasFound() throws {
        #expect(try verdict("in-the-app").matched, "the app read the stale title, the share extension did not")
        let wrong = try verdict("in-the-share")
        #expect(!wrong.matched && wrong.brokenCountsText == "stale-read in share: 1, found 0")
    }

    @Test func aCountTheRunBreaksIsNotMatchedAndSaysBy() throws {
        let tooFew = try verdict("two-expected")
        #expect(!tooFew.matched && tooFew.brokenCountsText == "stale-read: 2, found 1")
        let forbidden = try verdict("none-allowed")
        #expect(!forbidden.matched && forbidden.brokenCountsText == "not-converged: 0, found 1")
    }

    @Test func theReportsSayWhichCountBroke() throws {
        let run = ReportedRun(checking: try RunHarness.single(Self.yaml, variant: "two-expected", mode: .deterministic).trace)
        let document = JSONReport.document(run)
        #expect(document.run.expectedCounts == ["stale-read": "2"])
        let broken = try #require(document.verdict.brokenCounts?.first)
        #expect(document.verdict.brokenCounts?.count == 1 && broken.kind == "stale-read" && broken.expected == "2" && broken.found == 1)
        #expect(ConsoleReport.line(run.result).contains("NOT MATCHED") && ConsoleReport.line(run.result).contains("(expected stale-read: 2, found 1)"))
        #expect(HTMLReport.render(run).contains("NOT MATCHED: expected stale-read: 2, found 1."))
        #expect(JUnitReport.render([run]).contains("message=\"expected stale-read: 2, found 1\""))
    }
}

/// A step's own arguments per variant, run end to end: the stale read appears only where the update
/// changes the title.
@Suite(.serialized, .spawnsProcesses) struct StepVariantsEndToEndTests {
    static let yaml = """
        summary: The share extension updates the title, or sets the same one again.
        store: { group: group.t, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, refresh: staleness, staleness: -1 }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { read: n1, expect: { title: A }, now: true }
          - share: launch
          - share: { update: n1, set: { title: B }, variants: { same-title: { set: { title: A } } } }
          - share: save
          - app: { read: n1, expect: { title: A }, within: 200ms, variants: { changed: { expect: { title: B } } } }
        variants:
          changed:    { expect: { stale-read: 1 } }
          same-title: { expect: pass }
        """

    @Test(arguments: ["changed", "same-title"])
    func eachVariantRunsItsOwnArguments(variant: String) throws {
        let result = TraceChecker.check(try RunHarness.single(Self.yaml, variant: variant, mode: .deterministic).trace)
        #expect(result.verdict.matched, "\(variant): \(result.anomalies.map(\.explanation))")
    }
}
