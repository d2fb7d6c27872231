import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// The contract's full example decodes unchanged, with the values it says.
@Suite struct ContractExampleTests {
    let scenario: Scenario

    init() throws {
        scenario = try ScenarioLoader.parse(yaml: ContractExample.yaml, file: "Scenarios/refresh.yaml")
    }

    @Test func topLevelKeysDecode() {
        #expect(scenario.name == "refresh-with-infinite-staleness")
        #expect(scenario.summary == "One line that says what goes wrong for the user.")
        #expect(scenario.source == "https://...")
        #expect(scenario.seed == 7)
        #expect(scenario.tags == ["staleness", "share"])
        #expect(scenario.file == "Scenarios/refresh.yaml")
        #expect(scenario.expectation == .pass)
        #expect(scenario.staleTolerance == .milliseconds(250))
        #expect(scenario.latencyBudget == nil)
    }

    @Test func storeAndModelDecode() throws {
        #expect(scenario.store.group == "group.example.notes")
        #expect(scenario.store.name == "Notes")
        let model = scenario.store.model
        #expect(model.entityNames == ["Note", "Tag"])
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attributes == [
            AttributeDescription(name: "title", type: .string),
            AttributeDescription(name: "body", type: .string, isOptional: true),
            AttributeDescription(name: "pinned", type: .bool, defaultValue: .bool(false)),
            AttributeDescription(name: "rank", type: .int),
            AttributeDescription(name: "score", type: .double),
            AttributeDescription(name: "created", type: .date),
            AttributeDescription(name: "uid", type: .uuid),
        ])
        #expect(note.relationships == [
            RelationshipDescription(name: "tags", destination: "Tag", isToMany: true, isOptional: true, inverse: "note"),
        ])
        #expect(note.globalIdentifier?.name == "uid")
        let tag = try #require(model.entity(named: "Tag"))
        #expect(tag.attributes == [AttributeDescription(name: "name", type: .string)])
        #expect(tag.relationships == [
            RelationshipDescription(name: "note", destination: "Note", isToMany: false, isOptional: true, inverse: "tags"),
        ])
    }

    @Test func processesDecodeInDeclarationOrderWithRoleDefaults() {
        #expect(scenario.processes.map(\.name) == ["app", "share"])
        var app = ProcessSettings(role: .host)
        app.refresh = .staleness
        app.staleness = .infinite
        app.trigger = .darwin
        #expect(scenario.processes[0].settings == app)
        #expect(scenario.processes[1].settings == ProcessSettings(role: .share))
        #expect(scenario.processes[0].location.line == 25)
    }

    @Test func stepsDecodeWithLocationsAndProcesses() {
        let file = "Scenarios/refresh.yaml"
        func at(_ line: Int) -> Basics.SourceLocation { .init(file: file, line: line, column: 5) }
        #expect(scenario.steps == [
            ScenarioStep(location: at(34), process: "app", step: .launch),
            ScenarioStep(location: at(35), process: "app",
                         step: .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1)])),
            ScenarioStep(location: at(36), process: "app", step: .save),
            ScenarioStep(location: at(37), process: "app", step: .fetch(entity: "Note", predicate: nil, sort: [])),
            ScenarioStep(location: at(38), process: "app",
                         step: .read(id: "n1", expectation: .values(["title": .string("A")]), timing: .now)),
            ScenarioStep(location: at(39), process: "share", step: .launch),
            ScenarioStep(location: at(40), process: "share", step: .update(id: "n1", values: ["title": .string("B")])),
            ScenarioStep(location: at(41), process: "share", step: .save),
            ScenarioStep(location: at(42), process: "share", step: .exit),
            ScenarioStep(location: at(43), process: "app",
                         step: .read(id: "n1", expectation: .values(["title": .string("B")]),
                                     timing: .within(.milliseconds(200)))),
        ])
    }

    @Test func variantsDecodeInOrderWithOverridesAndExpectations() {
        #expect(scenario.variants.map(\.name) == ["stale-cache", "fresh-cache", "history", "refetch-keep", "refetch-reset"])
        #expect(scenario.variants.map(\.expectation) == [
            .anomalies([.staleRead]), .pass, .pass, .anomalies([.staleRead]), .pass,
        ])
        #expect(scenario.variants[1].overrides == [ProcessOverride(process: "app", settings: [.staleness(.interval(.zero))])])
        #expect(scenario.variants[4].overrides == [
            ProcessOverride(process: "app", settings: [.refresh(.refetch), .refetch(.reset)]),
        ])
    }

    @Test func runsResolveEachVariantsSettings() {
        let runs = scenario.runs()
        #expect(runs.map(\.variant) == ["stale-cache", "fresh-cache", "history", "refetch-keep", "refetch-reset"])
        #expect(runs.allSatisfy { $0.rootSeed == 7 && $0.steps == scenario.steps })
        let app = runs.map { $0.process(named: "app")!.settings }
        #expect(app.map(\.refresh) == [.staleness, .staleness, .history, .refetch, .refetch])
        #expect(app.map(\.staleness) == [.infinite, .interval(.zero), .infinite, .infinite, .infinite])
        #expect(app.map(\.refetch) == [.keepRegistered, .keepRegistered, .keepRegistered, .keepRegistered, .reset])
        #expect(runs.allSatisfy { $0.process(named: "share")!.settings == ProcessSettings(role: .share) })
    }

    @Test func summaryListsNameVariantsAndTags() {
        #expect(scenario.summaryLine == ScenarioSummary(
            name: "refresh-with-infinite-staleness", summary: "One line that says what goes wrong for the user.",
            variants: ["stale-cache", "fresh-cache", "history", "refetch-keep", "refetch-reset"],
            tags: ["staleness", "share"], file: "Scenarios/refresh.yaml"))
    }
}
