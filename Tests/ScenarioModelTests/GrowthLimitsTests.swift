import Basics
@testable import ScenarioModel
import Testing

/// `limits:` on store growth: sizes, counts, per-variant overrides, and every mistake at its position.
@Suite struct GrowthLimitsTests {
    private let steps = "  - app: launch"

    @Test(arguments: [
        ("4MB", Int64(4 << 20)), ("4 MB", 4 << 20), ("512KB", 512 << 10), ("1.5KB", 1536), ("1GB", 1 << 30), ("2MiB", 2 << 20),
        ("100B", 100), ("100", 100), ("0", 0), ("1_000", 1000), ("1024GB", 1 << 40),
    ])
    func sizesReadAsBytes(text: String, bytes: Int64) {
        #expect(ByteSize.parse(text) == bytes)
        #expect(ByteSize.parse(ByteSize.exact(bytes)) == bytes, "what the writer writes reads back")
    }

    @Test(arguments: ["", "MB", "-1MB", "4XB", "1025GB", "1e400", "nan", "inf", "4MB4", "٤MB", "99999999999999999999999GB"])
    func notSizesAreRefusedWithoutTrapping(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    @Test func limitsApplyToEveryRunAndAVariantReplacesOnlyWhatItSets() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: steps, after: """
            limits: { history-transactions: 1000, wal: 4MB }
            variants:
              tight: { limits: { wal: 512KB } }
              plain: { expect: pass }
            """))
        #expect(scenario.growthLimits == GrowthLimits(historyTransactions: 1000, walBytes: 4 << 20))
        let runs = scenario.runs()
        #expect(runs[0].growthLimits == GrowthLimits(historyTransactions: 1000, walBytes: 512 << 10))
        #expect(runs[1].growthLimits == GrowthLimits(historyTransactions: 1000, walBytes: 4 << 20))
        #expect(GrowthLimits(historyTransactions: 1000, walBytes: 512 << 10).text == "{ history-transactions: 1000, wal: 512KB }")
    }

    @Test func aVariantMaySetLimitsTheFileDoesNot() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(steps: steps, after: "variants:\n  v: { limits: { history-changes: 10 } }"))
        #expect(scenario.growthLimits == nil)
        #expect(scenario.runs()[0].growthLimits == GrowthLimits(historyChanges: 10))
    }

    private var after: Int { Fixture.firstStepLine + 1 }

    @Test func anUnknownLimitSuggestsTheNearest() {
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "limits: { wall: 4MB }"), line: after, column: 11,
                               containing: "unknown key 'wall' in limits; did you mean 'wal'?")
    }

    @Test func aSizeThatIsNotOneSaysWhatASizeLooksLike() {
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "limits: { wal: four megabytes }"), line: after, column: 16,
                               containing: "expected a size like 4MB, 512KB or 1GB (at most 1024GB) for the wal limit, but found")
    }

    @Test func aCountMustBeAWholeNumberInRange() {
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "limits: { history-transactions: -5 }"), line: after, column: 33,
                               containing: "the history-transactions limit must be between 0 and 100000000")
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "limits: { history-changes: 9999999999999999999999 }"), line: after, column: 28,
                               containing: "the history-changes limit must be between 0 and 100000000, but '9999999999999999999999' is far out of that range")
    }

    @Test func emptyLimitsAreAnError() {
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "limits: {}"), line: after, column: 9,
                               containing: "limits sets no limit")
    }

    @Test func aVariantsBadLimitIsReportedWhereItIsWritten() {
        Fixture.expectOneError(Fixture.yaml(steps: steps, after: "variants:\n  v: { limits: { store: 10QB } }"), line: after + 1, column: 25,
                               containing: "for the store limit")
    }
}
