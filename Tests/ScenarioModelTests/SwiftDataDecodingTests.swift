import Basics
@testable import ScenarioModel
import Testing

/// `framework: swiftdata`: its settings and defaults, and what a SwiftData process cannot use (Core Data's
/// refresh APIs), refused with a position; the reverse for a Core Data process.
@Suite struct SwiftDataDecodingTests {
    /// A file whose `app` is declared with `app` (flow settings) and runs `steps` after its launch.
    private func yaml(app: String, steps: String = "", variants: String = "") -> String {
        """
        summary: SwiftData.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host, \(app) }
          share: { role: share }
        steps:
          - app: launch
        \(steps)
        \(variants)
        """
    }

    @Test func aSwiftDataProcessAutosavesAndFollowsRemoteChangesByDefault() throws {
        let settings = try Fixture.scenario(yaml(app: "framework: swiftdata")).processes[0].settings
        #expect(settings.framework == .swiftData)
        #expect(settings.autosave && settings.autosaveDelay == .seconds(1))
        #expect(settings.trigger == .remoteChange)
        let core = try Fixture.scenario(yaml(app: "refresh: history")).processes[0].settings
        #expect(core.framework == .coreData && core.trigger == .darwin)
    }

    @Test func itsSettingsDecodeAndItsNameHasItsUsualSpellings() throws {
        let settings = try Fixture.scenario(yaml(app: "framework: SwiftData, autosave: false, autosave-delay: 30s, refresh: new-context"))
            .processes[0].settings
        #expect(settings.framework == .swiftData && !settings.autosave && settings.autosaveDelay == .seconds(30))
        #expect(settings.refresh == .newContext)
    }

    @Test func aSwiftDataWidgetStillRefreshesOnlyAtItsReloads() throws {
        let scenario = try Fixture.scenario("""
            summary: SwiftData widget.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes:
              app: { role: host }
              widget: { role: widget, framework: swiftdata }
            steps:
              - app: launch
            """)
        #expect(scenario.processes[1].settings.trigger == .manual)
    }

    @Test func autosaveOnACoreDataProcessIsRefused() {
        Fixture.expectOneError(yaml(app: "autosave: false"), line: 4, column: 22,
                               containing: "autosave is a SwiftData setting, and 'app' uses Core Data")
    }

    @Test func coreDataRefreshSettingsOnASwiftDataProcessAreRefused() {
        Fixture.expectOneError(yaml(app: "framework: swiftdata, staleness: 0"), line: 4, column: 44,
                               containing: "staleness is a Core Data setting, and 'app' uses SwiftData")
        Fixture.expectOneError(yaml(app: "framework: swiftdata, automatically-merges: true"), line: 4, column: 44,
                               containing: "automatically-merges is a Core Data setting")
    }

    @Test func aStrategyOfTheOtherFrameworkIsRefusedAtItsValue() {
        Fixture.expectOneError(yaml(app: "framework: swiftdata, refresh: refetch"), line: 4, column: 53,
                               containing: "refresh: refetch is a Core Data strategy, and 'app' uses SwiftData, whose strategies are")
        Fixture.expectOneError(yaml(app: "refresh: new-context"), line: 4, column: 31,
                               containing: "refresh: new-context is a SwiftData strategy, and 'app' uses Core Data")
    }

    @Test func aVariantCannotChangeTheFrameworkNorUseTheOtherOnesSettings() {
        Fixture.expectOneError(yaml(app: "refresh: history", variants: "variants:\n  sd: { app: { framework: swiftdata } }"),
                               line: 10, column: 16, containing: "a variant cannot change the framework of 'app'")
        Fixture.expectOneError(yaml(app: "framework: swiftdata", variants: "variants:\n  cd: { app: { refresh: staleness } }"),
                               line: 10, column: 25, containing: "refresh: staleness is a Core Data strategy")
    }

    @Test func aSwiftDataProcessHasNoChildContexts() {
        Fixture.expectOneError(yaml(app: "framework: swiftdata, contexts: { editor: { parent: view } }"), line: 4, column: 66,
                               containing: "SwiftData has no child contexts")
        #expect(throws: Never.self) { try Fixture.scenario(yaml(app: "framework: swiftdata, contexts: { importer: {} }")) }
    }

    @Test func aDeclaredContextTakesNoCoreDataSettingOnASwiftDataProcess() {
        Fixture.expectOneError(yaml(app: "framework: swiftdata, contexts: { importer: { staleness: 0 } }"), line: 4, column: 68,
                               containing: "staleness is a Core Data setting, and 'app' uses SwiftData")
    }

    @Test func aVariantMayNameTheFrameworkAProcessHas() throws {
        let scenario = try Fixture.scenario(yaml(app: "framework: swiftdata", variants: "variants:\n  same: { app: { framework: SwiftData } }"))
        #expect(scenario.runs().map(\.variant) == ["same"])
    }

    @Test(arguments: [
        ("  - app: refresh", "refreshAllObjects()"),
        ("  - app: { insert: Note, id: n1 }\n  - app: { refresh: n1 }", "refresh(_:mergeChanges:)"),
        ("  - app: { pin-generation: current }", "query generations"),
        ("  - app: unpin-generation", "query generations"),
        ("  - app: merge-history", "mergeChanges(fromContextDidSave:)"),
        ("  - app: { fetch: Note, refreshes-refetched-objects: true }", "shouldRefreshRefetchedObjects"),
        ("  - app: { fetch: Note, returns-objects-as-faults: false }", "returnsObjectsAsFaults"),
    ])
    func coreDataStepsAreRefusedOnASwiftDataProcess(step: String, api: String) {
        let errors = Fixture.errors(yaml(app: "framework: swiftdata", steps: step))
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.line == 7 + step.split(separator: "\n").count, "\(errors)")
        #expect(errors.first?.message.contains(api) == true, "\(errors)")
        #expect(errors.first?.message.contains("which SwiftData does not have") == true, "\(errors)")
    }

    @Test func theSameStepsStayValidOnACoreDataProcess() throws {
        let steps = "  - app: { fetch: Note, refreshes-refetched-objects: true }\n  - app: refresh\n  - app: merge-history"
        #expect(try Fixture.scenario(yaml(app: "refresh: history", steps: steps)).steps.count == 4)
    }

    @Test func theWriterKeepsTheFrameworkAndItsSettings() throws {
        let settings = try Fixture.scenario(yaml(app: "framework: swiftdata, autosave-delay: 5s, refresh: new-context"))
            .processes[0].settings
        let written = ScenarioWriter.settings(settings)
        #expect(written.first.map { "\($0.0): \($0.1)" } == "framework: swiftdata")
        #expect(written.contains { $0 == ("autosave-delay", "5s") })
        #expect(written.contains { $0 == ("refresh", "new-context") })
        // The framework's default trigger is no change to write.
        #expect(!written.contains { $0.0 == "trigger" })
    }
}
