@testable import ScenarioModel
import Testing

/// Each action word's example is what the decoder accepts, and a word written bare makes the step that
/// names itself with that word.
@Suite struct ActionWordTests {
    static let header = """
        summary: Every action's example.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string, rank: int = 0, pinned: bool = false, isOn: bool = false, tags: [Tag] }
            Tag: { name: string }
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n2, set: { title: C } }
          - app: { insert: Tag, id: t1, set: { name: x } }
          - app: { insert: Note, id: l1, set: { title: L } }
          - app: { fetch: Note, sort: title, controller: inbox }
        """

    /// The examples messages show (those that name the file's own things, `{ push: ... }`, aside), in
    /// the words' order, the insert first and the delete last so that each names an object there is.
    @Test func everyExampleDecodesAsItsOwnAction() throws {
        var words = ActionWord.allCases.filter { $0.modifiers != nil && !$0.example.contains("...") }
        words.removeAll { $0 == .insert || $0 == .delete }
        words = [.insert] + words + [.delete]
        let steps = words.map { "  - app: \($0.example)" }.joined(separator: "\n")
        let scenario = try Fixture.scenario(Self.header + "\n" + steps + "\n")
        let decoded = scenario.steps.suffix(words.count).map(\.step.keyword)
        #expect(decoded == words.map(\.rawValue))
        #expect(words.count >= 20)
    }

    @Test func aBareWordMakesTheStepOfThatWord() {
        for word in ActionWord.allCases {
            guard let step = word.bareStep else {
                #expect(word.modifiers != nil, "\(word) is neither bare nor takes an argument")
                continue
            }
            #expect(step.keyword == word.rawValue)
            #expect(ActionWord(step) == word)
        }
    }
}
