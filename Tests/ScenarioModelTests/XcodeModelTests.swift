import Basics
import Foundation
@testable import ScenarioModel
import Testing
import TestSupport

/// An app's Xcode model read as a scenario's model (`--model App.xcdatamodeld`): what Core Data's
/// `contents` XML says, mapped to the scenario language, what it cannot hold said in notes, and a broken
/// or hostile file refused at its line and column.
@Suite struct XcodeModelTests {
    private func read(_ xml: String) throws(ScenarioErrors) -> (model: ModelDescription, notes: [String]) {
        var reader = XcodeModel(file: "contents")
        let model = try reader.decode(xml)
        return (model, reader.notes)
    }

    private func errors(_ xml: String) -> [String] {
        do {
            _ = try read(xml)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    static let library = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23A344" sourceLanguage="Swift">
            <!-- a comment, and text, are skipped -->
            <entity name="Item" representedClassName="Item" isAbstract="YES" syncable="YES">
                <attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="uuid" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Note" representedClassName="Note" parentEntity="Item" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/>
                <attribute name="rank" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="score" optional="YES" attributeType="Float" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="pinned" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="body" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromDataTransformer"/>
                <attribute name="draft" optional="YES" transient="YES" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="No Action" ordered="YES" destinationEntity="Tag"/>
            </entity>
            <entity name="Folder" representedClassName="Folder" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="name"/><constraint value="parentName"/></uniquenessConstraint>
                </uniquenessConstraints>
                <attribute name="parentName" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Folder"/>
            </entity>
            <elements><element name="Note" positionX="0" positionY="0" width="128" height="44"/></elements>
        </model>
        """

    @Test func aModelReadsAsCoreDataDeclaresIt() throws {
        let (model, notes) = try read(Self.library)
        #expect(model.entityNames == ["Item", "Note", "Folder", "Tag"])
        let item = try #require(model.entity(named: "Item"))
        #expect(item.isAbstract && item.parent == nil)
        #expect(item.attribute(named: "createdAt")?.type == .date && item.attribute(named: "createdAt")?.isOptional == false)
        #expect(item.attribute(named: "uuid")?.isUnique == true, "a constraint of one attribute is that attribute's")
        let note = try #require(model.entity(named: "Note"))
        #expect(note.parent == "Item")
        #expect(note.attributes.map(\.name) == ["createdAt", "uuid", "title", "rank", "score", "pinned"], "inherited first, as Core Data lists them")
        #expect(note.attribute(named: "rank")?.type == .int && note.attribute(named: "score")?.type == .double)
        #expect(note.attribute(named: "pinned")?.type == .bool && note.attribute(named: "pinned")?.isOptional == false)
        #expect(note.relationship(named: "folder") == RelationshipDescription(name: "folder", destination: "Folder", isToMany: false, isOptional: true, inverse: "notes"))
        #expect(note.relationship(named: "tags")?.isToMany == true && note.relationship(named: "tags")?.deleteRule == .noAction)
        #expect(note.relationship(named: "tags")?.isOrdered == true && folder(model)?.relationship(named: "notes")?.isOrdered == false)
        let folder = try #require(model.entity(named: "Folder"))
        #expect(folder.relationship(named: "notes")?.deleteRule == .cascade)
        #expect(folder.uniquenessConstraints == [["name", "parentName"]])
        #expect(model.entity(named: "Tag")?.relationship(named: "owner")?.deleteRule == .deny)
        #expect(model.entity(named: "Tag")?.relationship(named: "owner")?.isOptional == false)
        #expect(notes == [
            "Note.body is Transformable, a type the scenario language does not have: left out",
            "Note.draft is transient (no column holds it): left out",
        ])
    }

    private func folder(_ model: ModelDescription) -> EntityDescription? { model.entity(named: "Folder") }

    @Test func aConstraintOnALeftOutAttributeIsLeftOutWithIt() throws {
        let (model, notes) = try read("""
            <model><entity name="Photo"><attribute name="data" attributeType="Binary"/><attribute name="name" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="data"/><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity></model>
            """)
        #expect(model.entity(named: "Photo")?.uniquenessConstraints == [])
        #expect(notes.last == "the uniqueness constraint [data, name] of Photo names data, which is left out: the constraint is too")
    }

    @Test func whatTheScenarioLanguageRefusesIsNamedAtTheElementThatSaidIt() {
        let found = errors("""
            <model>
              <entity name="Note">
                <attribute name="Title" attributeType="String"/>
                <relationship name="folder" maxCount="1" destinationEntity="Folder"/>
              </entity>
            </model>
            """)
        #expect(found == ["contents:4:5: error: Note.folder points at 'Folder' (destinationEntity), which is no entity of the model."], "\(found)")
        let named = errors("<model>\n  <entity name=\"Note\">\n    <attribute name=\"Title\" attributeType=\"String\"/>\n  </entity>\n</model>")
        #expect(named.count == 1 && named[0].hasPrefix("contents:3:5: error: the property name 'Title'"), "\(named)")
    }

    /// A name the YAML form has to escape is still placed at its element (the error was at 1:1).
    @Test func aHostileNameIsEscapedAndPlacedAtItsElement() {
        let found = errors("<model>\n  <entity name=\"A\u{1B}[31m\">\n    <attribute name=\"x\" attributeType=\"String\"/>\n  </entity>\n</model>")
        #expect(found.count == 1 && found[0].hasPrefix("contents:2:3: error: the entity name 'A\\u{1b}[31m'"), "\(found)")
    }

    @Test func brokenXMLIsRefusedAtItsPosition() {
        #expect(errors("<model>\n  <entity name=\"A\">\n    <attribute name=\"x\">\n  </entity>\n</model>\n")
            == ["contents:4:3: error: </entity> closes <attribute>."])
        #expect(errors("<model>\n  <entity name=\"A\" name=\"B\"/>\n</model>") == ["contents:2:20: error: the attribute name is given twice."])
        #expect(errors("<model><entity name=\"A\"/>") == ["contents:1:26: error: the file ends before </model>."])
        #expect(errors("Note: { title: string }").isEmpty == false)
        #expect(errors("<plist/>") == ["contents:1:1: error: the root element is <plist>; an Xcode model's contents file has <model>."])
    }

    /// A destination is written into the YAML form as it is: one that names no entity, or holds what YAML
    /// would read as its own (a quote, a bracket, a line break), is refused at its relationship.
    @Test func aDestinationThatIsNoEntityIsRefusedBeforeItReachesTheYAML() {
        let injected = errors("<model><entity name=\"A\"><relationship name=\"r\" toMany=\"YES\" destinationEntity=\"A]&quot;&#10;B: { x: string }\"/></entity></model>")
        #expect(injected.count == 1 && injected[0].hasPrefix("contents:1:25: error: A.r points at 'A]\"\\nB: { x: string }'"), "\(injected)")
    }

    /// A one-line file of a million bytes reads in linear time (a column computed from the line's start
    /// made it quadratic), and a column counts scalars, after a byte-order mark too.
    @Test func aLongLineReadsInLinearTimeAndColumnsCountScalars() throws {
        let elements = String(repeating: "<fetchIndex/>", count: 70_000)
        let (model, _) = try read("<model>\(elements)<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity></model>")
        #expect(model.entityNames == ["A"])
        #expect(errors("\u{FEFF}<model>é<x a=\"1\" a=\"2\"/></model>") == ["contents:1:18: error: the attribute a is given twice."])
    }

    /// A DTD is skipped, not read: an entity it declares is no reference the file may use, so nothing expands.
    @Test func aDeclaredEntityIsNotExpanded() {
        let lols = "<!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n"
        #expect(errors(lols + "<model><entity name=\"N&b;\"/></model>") == ["contents:2:23: error: the reference &b; is none XML defines."])
        let (model, _) = (try? read(lols + "<model><entity name=\"N&#x41;&amp;\"/></model>")) ?? (ModelDescription(entities: []), [])
        #expect(model.entities.isEmpty, "N A & is no entity name the language accepts")
        #expect(errors(lols + "<model><entity name=\"N&#x41;\"/></model>").isEmpty)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(errors(deep).first?.contains("elements nest more than 64 deep") == true)
    }

    /// A `.xcdatamodeld` gives its current version (`.xccurrentversion`), else its last by name.
    @Test func aModelPackageGivesItsCurrentVersion() throws {
        let directory = try TemporaryDirectory()
        let package = directory.url.appendingPathComponent("App.xcdatamodeld")
        for (version, entity) in [("App.xcdatamodel", "First"), ("App 2.xcdatamodel", "Second"), ("App 3.xcdatamodel", "Third")] {
            let folder = package.appendingPathComponent(version)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "<model><entity name=\"\(entity)\"><attribute name=\"x\" attributeType=\"String\"/></entity></model>"
                .write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        #expect(try ScenarioLoader.model(contentsOf: package).model.entityNames == ["Third"], "the last by name")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>App 2.xcdatamodel</string></dict></plist>
            """.write(to: package.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        #expect(try ScenarioLoader.model(contentsOf: package).model.entityNames == ["Second"])
        #expect(try ScenarioLoader.model(contentsOf: package.appendingPathComponent("App.xcdatamodel")).model.entityNames == ["First"])
    }

    /// Someone else's package may link its files to a device: the link is followed and refused, never read
    /// (reading /dev/zero would not end).
    @Test func aLinkToADeviceIsRefusedNotRead() throws {
        let directory = try TemporaryDirectory()
        let version = directory.url.appendingPathComponent("Evil.xcdatamodeld/Evil.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: version.appendingPathComponent("contents").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("Evil.xcdatamodeld/.xccurrentversion").path,
                                                   withDestinationPath: "/dev/zero")
        do {
            _ = try ScenarioLoader.model(contentsOf: directory.url.appendingPathComponent("Evil.xcdatamodeld"))
            Issue.record("a link to a device must be refused")
        } catch {
            #expect(error.errors.first?.message.hasPrefix("the model file is no regular file") == true, "\(error)")
        }
    }
}
