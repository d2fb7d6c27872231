import Basics
@testable import ScenarioModel
import Testing
import TestSupport

/// `controller:` and `sections:` on a fetch, and the `results` check: decoded, written back, and refused
/// with a position where Core Data would refuse them or the file names what does not exist.
@Suite struct FetchedResultsDecodingTests {
    private func file(_ fetch: String, _ check: String = "- app: { results: inbox, expect: [n1], now: true }") -> String {
        """
        summary: Controllers.
        store:
          group: group.example.notes
          name: Notes
          model:
            Note: { title: string, folder: string }
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A, folder: Work } }
          - app: \(fetch)
          \(check)
        """
    }

    private func errors(_ text: String) -> [String] {
        do {
            _ = try ScenarioLoader.parse(yaml: text, file: "c.yaml")
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func aControllerAndItsCheckDecodeAndWriteBack() throws {
        let scenario = try ScenarioLoader.parse(yaml: file("{ fetch: Note, sort: \"folder, -title\", controller: inbox, sections: folder }",
                                                           "- app: { results: inbox, expect: { Work: [n1] }, changes: 0, within: 2s }"),
                                                file: "c.yaml")
        guard case .fetch(_, _, let sort, let options) = scenario.steps[2].step else { Issue.record("\(scenario.steps[2])"); return }
        #expect(options.controller == "inbox" && options.sections == "folder" && sort.map(\.attribute) == ["folder", "title"])
        guard case .results(let name, let expectation, let timing) = scenario.steps[3].step else { Issue.record("\(scenario.steps[3])"); return }
        let twoSeconds = try Duration(parsing: "2s")
        #expect(name == "inbox" && timing == .within(twoSeconds))
        #expect(expectation == ResultsExpectation(sections: [ResultsSection(name: "Work", objects: ["n1"])], changes: 0))
        #expect(try StepWriter.line(scenario.steps[2]) == "app: { fetch: Note, sort: \"folder, -title\", controller: inbox, sections: folder }")
        #expect(try StepWriter.line(scenario.steps[3]) == "app: { results: inbox, expect: { Work: [n1] }, changes: 0, within: 2s }")
    }

    @Test func whatCoreDataRefusesIsRefusedAtItsPosition() {
        let unsorted = errors(file("{ fetch: Note, controller: inbox }"))
        #expect(unsorted.count == 1 && unsorted[0].hasPrefix("c.yaml:12:37: error: a fetched-results controller needs a sort order"),
                "\(unsorted)")
        #expect(errors(file("{ fetch: Note, sort: title, controller: inbox, sections: folder }")).first?
            .contains("the controller's sections come from its first sort key") == true)
        #expect(errors(file("{ fetch: Note, sort: folder, controller: inbox, sections: foldr }")).first?
            .contains("sections: names 'foldr', which is no attribute of Note; did you mean 'folder'?") == true)
        #expect(errors(file("{ fetch: Note, sort: folder, sections: folder }")).first?
            .contains("sections: names a fetched-results controller's sections; give the controller too") == true)
    }

    @Test func aCheckNamesAControllerSomeFetchMakesAndChecksSomething() {
        let unknown = errors(file("{ fetch: Note, sort: title, controller: inbox }", "- app: { results: inbx, expect: [n1] }"))
        #expect(unknown.first?.contains("results names 'inbx', which no fetch makes; did you mean 'inbox'?") == true, "\(unknown)")
        let nothing = errors(file("{ fetch: Note, sort: title, controller: inbox }", "- app: { results: inbox }"))
        #expect(nothing.first?.contains("the results step checks nothing") == true, "\(nothing)")
        let twice = errors(file("{ fetch: Note, sort: title, controller: inbox }", "- app: { results: inbox, expect: [n1, n1] }"))
        #expect(twice.first?.contains("'n1' is listed twice; a controller holds an object once.") == true, "\(twice)")
        let unknownObject = errors(file("{ fetch: Note, sort: title, controller: inbox }", "- app: { results: inbox, expect: [n9] }"))
        #expect(!unknownObject.isEmpty, "an object no step inserted")
    }
}
