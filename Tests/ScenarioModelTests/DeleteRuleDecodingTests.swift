import Basics
import Foundation
@testable import ScenarioModel
import Testing
import TestSupport

/// A relationship's delete rule and explicit inverse, after its type (`Folder? cascade`, `"[Note] deny
/// inverse folder"`) or as a mapping (`{ to: [Note], delete-rule: cascade, inverse: folder }`), and
/// refused with a position where misused.
@Suite struct DeleteRuleDecodingTests {
    private func relationship(_ scenario: Scenario, _ entity: String, _ name: String) -> RelationshipDescription? {
        scenario.store.model.entity(named: entity)?.relationships.first { $0.name == name }
    }

    @Test func rulesAndInversesDecodeInBothForms() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(model: """
            Folder: { name: string, notes: { to: [Note], delete-rule: cascade, inverse: folder }, archive: "[Note] deny inverse archivedIn" }
            Note: { title: string, folder: Folder? nullify, archivedIn: Folder? no-action inverse archive }
            """))
        #expect(relationship(scenario, "Folder", "notes")?.deleteRule == .cascade)
        #expect(relationship(scenario, "Folder", "notes")?.inverse == "folder")
        #expect(relationship(scenario, "Folder", "archive")?.deleteRule == .deny)
        #expect(relationship(scenario, "Folder", "archive")?.isToMany == true)
        #expect(relationship(scenario, "Note", "archivedIn")?.deleteRule == .noAction)
        #expect(relationship(scenario, "Note", "archivedIn")?.inverse == "archive")
        #expect(relationship(scenario, "Note", "folder")?.deleteRule == .nullify)
        #expect(relationship(scenario, "Note", "folder")?.inverse == "notes", "the named inverse pairs both ways")
    }

    @Test func twoRelationshipsEachWayArePairedByTheNamedInverse() throws {
        // Without `inverse`, two relationships from Note to Folder leave both without one (ambiguous).
        let scenario = try Fixture.scenario(Fixture.yaml(model: """
            Folder: { notes: "[Note] inverse folder", pinned: "[Note] inverse pinnedIn" }
            Note: { folder: Folder?, pinnedIn: Folder? }
            """))
        #expect(relationship(scenario, "Folder", "notes")?.inverse == "folder")
        #expect(relationship(scenario, "Folder", "pinned")?.inverse == "pinnedIn")
    }

    @Test func theWrittenModelReadsBackWithItsRulesAndInverses() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(model: """
            Folder: { notes: { to: [Note], delete-rule: cascade, inverse: folder }, pinned: "[Note] inverse pinnedIn" }
            Note: { folder: Folder? deny, pinnedIn: Folder? no-action }
            """))
        let written = YAMLText.model(scenario.store.model, indent: "").dropFirst().map { String($0.dropFirst(2)) }.joined(separator: "\n")
        let again = try Fixture.scenario(Fixture.yaml(model: written))
        #expect(again.store.model == scenario.store.model, "written:\n\(written)")
    }

    @Test func anAttributeWhoseDefaultIsARuleNameIsStillAnAttribute() throws {
        let scenario = try Fixture.scenario(Fixture.yaml(model: "Note: { mode: string = deny }"))
        #expect(scenario.store.model.entity(named: "Note")?.attributes.first?.defaultValue == .string("deny"))
    }

    @Test func mistakesAreErrorsAtTheirPlace() {
        Fixture.expectOneError(Fixture.yaml(model: "Note: { title: string cascade }"),
                               line: 6, column: 20, containing: "only a relationship has a delete rule")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: { to: [Note], delete-rule: explode } }\nNote: { folder: Folder? }"),
                               line: 6, column: 49, containing: "delete-rule is one of nullify, cascade, deny, no-action")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: { to: [Note], delete-rule: casade } }\nNote: { folder: Folder? }"),
                               line: 6, column: 49, containing: "did you mean 'cascade'?")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: \"[Note] nulify\" }\nNote: { folder: Folder? }"),
                               line: 6, column: 22, containing: "'nulify' after the relationship's type is neither a delete rule (nullify, cascade, deny, no-action), inverse <name> nor ordered; did you mean 'nullify'?")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: [Note] }\nNote: { folder: Folder? cascde }"),
                               line: 7, column: 21, containing: "did you mean 'cascade'?")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: \"[Note] cascade inverse\" }\nNote: { folder: Folder? }"),
                               line: 6, column: 22, containing: "inverse needs the name")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: \"[Note] cascade deny\" }\nNote: { folder: Folder? }"),
                               line: 6, column: 22, containing: "a relationship takes one delete rule; '[Note]' names two.")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: \"[Note] inverse folder inverse folder\" }\nNote: { folder: Folder? }"),
                               line: 6, column: 22, containing: "a relationship takes one inverse; '[Note]' names two.")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: { to: [Note], rule: cascade } }\nNote: { folder: Folder? }"),
                               line: 6, column: 36, containing: "unknown key 'rule'")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: { delete-rule: cascade } }\nNote: { folder: Folder? }"),
                               line: 6, column: 22, containing: "names its destination under to:")
        Fixture.expectOneError(Fixture.yaml(model: "Folder: { notes: \"[Note] inverse title\" }\nNote: { title: string, folder: Folder? }"),
                               line: 6, column: 15, containing: "inverse `title` is not a relationship of Note")
    }
}

/// `ordered` on a to-many (`isOrdered`), and `at:` on a relate into one.
@Suite struct OrderedRelationshipDecodingTests {
    private func yaml(_ model: String, steps: String = "  - app: launch") -> String {
        """
        summary: x
        store:
          group: group.t
          name: Lists
          model:
        \(model)
        processes:
          app: { role: host }
        steps:
        \(steps)
        """
    }

    @Test func orderedIsAnOptionOfAToManyInTextOrMapping() throws {
        let scenario = try ScenarioLoader.parse(yaml: yaml("""
                List: { items: "[Item] ordered cascade", tags: { to: [Tag], ordered: true } }
                Item: { list: List? }
                Tag: { lists: [List] }
            """, steps: """
              - app: launch
              - app: { insert: List, id: l1 }
              - app: { insert: Item, id: i1 }
              - app: { relate: l1, to: i1, via: items, at: 0 }
              - app: { read: l1, expect: { items: [i1], tags: [] }, now: true }
            """), file: "o.yaml")
        let list = try #require(scenario.store.model.entity(named: "List"))
        #expect(list.relationship(named: "items")?.isOrdered == true && list.relationship(named: "items")?.deleteRule == .cascade)
        #expect(list.relationship(named: "tags")?.isOrdered == true)
        #expect(scenario.store.model.entity(named: "Tag")?.relationship(named: "lists")?.isOrdered == false)
        #expect(scenario.steps[3].step == .relate(id: "l1", to: "i1", via: "items", at: 0))
        #expect(try StepWriter.line(scenario.steps[3]) == "app: { relate: l1, to: i1, via: items, at: 0 }")
        let written = YAMLText.model(scenario.store.model, indent: "")
        #expect(written.contains("    items: \"[Item] cascade ordered\""), "\(written)")
    }

    @Test func orderAndPositionsAreRefusedWhereTheyMeanNothing() {
        func messages(_ model: String, steps: String = "  - app: launch") -> [String] {
            Fixture.errors(yaml(model, steps: steps)).map(\.message)
        }
        #expect(messages("        List: { item: Item? ordered }\n        Item: {}").first?.contains("only a to-many relationship can be ordered") == true)
        #expect(messages("        List: { items: \"[Item] ordered ordered\" }\n        Item: {}").first?.contains("says ordered twice") == true)
        #expect(messages("        List: { items: { to: [Item], ordered: maybe } }\n        Item: {}").count == 1)
        let relate = """
              - app: launch
              - app: { insert: List, id: l1 }
              - app: { insert: Item, id: i1 }
              - app: { relate: l1, to: i1, via: items, at: 0 }
            """
        #expect(messages("        List: { items: [Item] }\n        Item: {}", steps: relate).first?.contains("is unordered") == true)
        #expect(messages("        List: { items: \"[Item] ordered\" }\n        Item: {}",
                         steps: relate.replacingOccurrences(of: "at: 0", with: "at: -1")).count == 1)
        #expect(messages("        List: { items: \"[Item] ordered\" }\n        Item: {}",
                         steps: relate.replacingOccurrences(of: "{ relate: l1, to: i1, via: items, at: 0 }",
                                                            with: "{ unrelate: l1, from: i1, via: items, at: 0 }")).first?.contains("at") == true)
    }
}
