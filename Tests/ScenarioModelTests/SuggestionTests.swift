import Basics
@testable import ScenarioModel
import Testing

@Suite struct SuggestionTests {
    @Test func suggestsTheNearestWithinATypoOrTwo() {
        #expect(Suggestion.nearest(to: "stalness", in: ProcessSetting.keys) == "staleness")
        #expect(Suggestion.nearest(to: "mergepolicy", in: ProcessSetting.keys) == "merge-policy")
        #expect(Suggestion.nearest(to: "trigegr", in: ProcessSetting.keys) == "trigger")
    }

    @Test func foldsCamelCaseAndSnakeCase() {
        #expect(Suggestion.nearest(to: "historyTracking", in: ProcessSetting.keys) == "history-tracking")
        #expect(Suggestion.nearest(to: "busy_timeout", in: ProcessSetting.keys) == "busy-timeout")
    }

    @Test func suggestsNothingForAnUnrelatedWord() {
        #expect(Suggestion.nearest(to: "colour", in: ProcessSetting.keys) == nil)
        #expect(Suggestion.hint(for: "colour", in: ["a", "b", "c"]) == "; expected one of a, b or c.")
    }

    @Test func countsATranspositionAsOneEdit() {
        #expect(Suggestion.editDistance("ab", "ba") == 1)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }
}
