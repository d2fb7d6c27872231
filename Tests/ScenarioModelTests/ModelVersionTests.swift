import Basics
@testable import ScenarioModel
import Testing

/// `store.models` and the settings that choose a version: each process's steps are checked against the
/// version it opens the store with, and versions must be ones Core Data migrates between on its own.
@Suite struct ModelVersionTests {
    static func yaml(models: String, processes: String, steps: String) -> String {
        """
        summary: Versions.
        store:
          group: group.example.notes
          name: Notes
          models:
        \(models)
        processes:
        \(processes)
        steps:
        \(steps)
        """
    }

    static let twoVersions = """
            v1: { Note: { title: string, color: string? } }
            v2: { Note: { title: string, pinned: bool = false }, Tag: { name: string } }
        """

    @Test func versionsDecodeOldestFirstAndTheNewestIsTheModel() throws {
        let scenario = try Fixture.scenario(Self.yaml(models: Self.twoVersions, processes: """
              old: { role: host, model: v1, migrate: false, on-load-failure: retry }
              app: { role: host }
            """, steps: "  - app: launch"))
        #expect(scenario.store.versions.map(\.name) == ["v1", "v2"])
        #expect(scenario.store.model.entityNames == ["Note", "Tag"])
        #expect(scenario.store.model(version: "v1").entityNames == ["Note"])
        #expect(scenario.store.versions(before: "v2").map(\.name) == ["v1"])
        #expect(scenario.store.versions(before: nil).map(\.name) == ["v1"])
        #expect(scenario.store.versions(before: "v1").isEmpty)
        let old = scenario.processes[0].settings
        #expect(old.modelVersion == "v1" && !old.migrate && old.onLoadFailure == .retry)
        #expect(scenario.processes[1].settings.modelVersion == nil && scenario.processes[1].settings.migrate)
    }

    @Test func stepsAreCheckedAgainstTheVersionTheirProcessOpens() {
        let errors = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: """
              old: { role: host, model: v1 }
              app: { role: host }
            """, steps: """
              - old: { insert: Note, id: n1, set: { color: red } }
              - old: { insert: Note, id: n2, set: { pinned: true } }
              - app: { insert: Tag, id: t1, set: { name: x } }
              - old: { insert: Tag, id: t2, set: { name: x } }
            """))
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.message.contains("no attribute 'pinned'") && $0.line == 13 })
        #expect(errors.contains { $0.message.contains("unknown entity 'Tag'") && $0.line == 15 })
    }

    @Test(arguments: [
        ("v1: { Note: { title: string } }\n    v2: { Note: { title: int } }", "Note.title is string in v1 and int in v2"),
        ("v1: { Note: { tag: [Tag] }, Tag: { name: string } }\n    v2: { Note: { tag: Tag }, Tag: { name: string } }",
         "Note.tag is [Tag] in v1 and Tag in v2"),
        ("v1: { Note: { tag: Tag }, Tag: { name: string }, Folder: { name: string } }\n    v2: { Note: { tag: Folder }, Tag: { name: string }, Folder: { name: string } }",
         "Note.tag is Tag in v1 and Folder in v2"),
        ("v1: { Note: { title: string } }", "needs two or more"),
    ])
    func versionsCoreDataCannotMigrateBetweenAreRefused(models: String, message: String) {
        let errors = Fixture.errors(Self.yaml(models: "    " + models, processes: "  app: { role: host }", steps: "  - app: launch"))
        #expect(errors.contains { $0.message.contains(message) }, "\(errors)")
    }

    @Test func addedRemovedAndRequiredWithADefaultAreLightweight() throws {
        _ = try Fixture.scenario(Self.yaml(models: """
                v1: { Note: { title: string, color: string? } }
                v2: { Note: { title: string, color: string = none, pinned: bool = false }, Tag: { name: string } }
                v3: { Note: { title: string, tags: [Tag] }, Tag: { name: string, notes: [Note] } }
                v4: { Note: { title: string, tags: [Tag], folder: Tag }, Tag: { name: string, notes: [Note] } }
                v5: { Note: { title: string, tags: [Tag], folder: [Tag] }, Tag: { name: string, notes: [Note] } }
            """, processes: "  app: { role: host }", steps: "  - app: launch"))
    }

    @Test func aModelSettingNeedsADeclaredVersion() {
        let unknown = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: "  app: { role: host, model: v3 }",
                                               steps: "  - app: launch"))
        #expect(unknown.count == 1 && unknown[0].message.hasPrefix("unknown model version 'v3'"), "\(unknown)")
        let single = Fixture.errors("""
            summary: One model.
            store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
            processes: { app: { role: host, model: v1 } }
            steps: [ { app: launch } ]
            """)
        #expect(single.count == 1 && single[0].message.contains("declares one model"), "\(single)")
        let both = Fixture.errors("""
            summary: Both.
            store:
              group: group.example.notes
              name: Notes
              model: { Note: { title: string } }
              models: { v1: { Note: { title: string } }, v2: { Note: { title: string, n: int } } }
            processes: { app: { role: host } }
            steps: [ { app: launch } ]
            """)
        #expect(both.contains { $0.message.contains("both model: and models:") }, "\(both)")
    }

    @Test func loadSettingsNameTheirValues() {
        let errors = Fixture.errors(Self.yaml(models: Self.twoVersions,
                                              processes: "  app: { role: host, on-load-failure: wait, migrate: maybe }",
                                              steps: "  - app: launch"))
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.message.contains("crash") && $0.message.contains("retry") })
    }

    @Test func aVariantThatGivesAnOlderVersionHasItsProcessStepsCheckedAgain() {
        let errors = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: """
              app: { role: host }
              share: { role: share }
            """, steps: """
              - app: { insert: Note, id: n1, set: { title: A } }
              - share: { update: n1, set: { pinned: true } }
              - share: { insert: Tag, id: t1, set: { name: x } }
              - share: { read: n1, expect: { pinned: true }, only-in: [same] }
              - share: { fetch: Note, where: "pinned == true" }
            variants:
              same: { expect: pass }
              old: { share: { model: v1 }, expect: pass }
            """))
        #expect(errors.map(\.line) == [13, 14, 16], "\(errors)")
        #expect(errors.first?.message.hasPrefix("in variant 'old', 'share' opens the store with v1, and its Note has no property 'pinned'") == true)
        #expect(errors[1].message.contains("its model has no entity Tag"))
    }

    @Test func aProcessCannotNameAnObjectOfAnEntityItsVersionLacks() {
        let errors = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: """
              app: { role: host }
              old: { role: share, model: v1 }
            """, steps: """
              - app: { insert: Tag, id: t1, set: { name: x } }
              - old: { read: t1 }
            """))
        #expect(errors.count == 1 && errors[0].message.contains("whose model has no entity Tag, so it can never show t1"), "\(errors)")
    }
    /// A toggle names an object and one of its attributes: both are checked against the version a process
    /// opens the store with, as an update's are (toggle was missing from the check, and passed silently).
    @Test func aToggleIsCheckedAgainstTheProcesssVersion() {
        let errors = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: """
              app: { role: host }
              share: { role: share }
              old: { role: action, model: v1 }
            """, steps: """
              - app: { insert: Note, id: n1, set: { title: A } }
              - share: { toggle: n1, property: pinned }
              - app: { insert: Tag, id: t1, set: { name: x } }
              - old: { toggle: t1, property: pinned }
            variants:
              same: { expect: pass }
              old: { share: { model: v1 }, expect: pass }
            """))
        #expect(errors.map(\.line) == [14, 16], "\(errors)")
        #expect(errors.first?.message.hasPrefix("in variant 'old', 'share' opens the store with v1, and its Note has no property 'pinned'") == true)
        #expect(errors.last?.message.contains("whose model has no entity Tag, so it can never show t1") == true)
    }

    /// `app-update: v2` is a control step naming a declared version (bug 29); another name is an error at
    /// it with the versions, and so is one in a store of a single model. `on-newer-model` is a widget's.
    @Test func anAppUpdateNamesADeclaredVersion() throws {
        let processes = """
              app: { role: host, model: v1 }
              widget: { role: widget, model: v1, on-newer-model: exit }
            """
        let yaml = Self.yaml(models: Self.twoVersions, processes: processes, steps: "  - app: launch\n  - app-update: v2")
        let scenario = try Fixture.scenario(yaml)
        #expect(scenario.steps.last?.step == .appUpdate(version: "v2"))
        #expect(scenario.processes[1].settings.onNewerModel == .exit)
        // Written out (as explore writes a counterexample) and read back, the same.
        let text = try ScenarioWriter.file(name: "written", summary: "Update.", comment: [], storeSource: yaml,
                                           processes: scenario.runs()[0].processes, steps: scenario.steps, expectation: .pass, seed: 1)
        let back = try ScenarioLoader.parse(yaml: text, file: "written.yaml")
        #expect(back.steps.map(\.step) == scenario.steps.map(\.step), "\(text)")
        #expect(back.processes.first { $0.name == "widget" }?.settings.onNewerModel == .exit, "\(text)")
        let unknown = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: processes, steps: "  - app-update: v3"))
        #expect(unknown.count == 1 && unknown.first?.message.contains("unknown model version 'v3'") == true, "\(unknown)")
        #expect(unknown.first?.line == 12, "\(unknown)")
        let single = Fixture.errors("""
            summary: One model.
            store: { group: group.t, name: N, model: { Note: { title: string } } }
            processes:
              app: { role: host }
            steps:
              - app-update: v2
            """)
        #expect(single.count == 1 && single.first?.message.contains("app-update: names a version of store.models") == true, "\(single)")
        let share = Fixture.errors(Self.yaml(models: Self.twoVersions, processes: "  share: { role: share, on-newer-model: exit }",
                                             steps: "  - share: launch"))
        #expect(share.count == 1 && share.first?.message.contains("on-newer-model") == true, "\(share)")
    }
}
