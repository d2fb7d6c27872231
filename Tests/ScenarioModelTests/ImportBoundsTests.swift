import Basics
import Foundation
@testable import ScenarioModel
import SharedStore
import Testing
import TestSupport

/// `groupsim import` of a store whose size or schema would make a skeleton no scenario can be: refused
/// early with the reason, or written with what fits (issue 35).
@Suite struct ImportBoundsTests {
    /// A store in Core Data's layout with `entities` root entities E0001..., one row each, the first of
    /// whose titles is `title`.
    private func store(_ directory: TemporaryDirectory, entities: Int, title: String) throws -> URL {
        let url = directory.url.appendingPathComponent("Wide.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        defer { db.close() }
        try db.execute(CoreDataLayout.storeTables)
        try db.execute("BEGIN")
        let names = (1...entities).map { String(format: "E%04d", $0) }
        for (i, name) in names.enumerated() {
            try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (\(i + 1), '\(name)', 0, 1)")
            try db.execute("CREATE TABLE Z\(name) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR)")
            try db.cached("INSERT INTO Z\(name) VALUES (1, \(i + 1), 1, ?)").run([.string(i == 0 ? title : "t")])
        }
        try db.execute("COMMIT")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "WIDE", entities: names))
        return url
    }

    @Test func aStoreWithMoreEntitiesThanAModelMayHaveIsRefusedWithTheReason() throws {
        let directory = try TemporaryDirectory(prefix: "import-bounds-test")
        let url = try store(directory, entities: Limits.entities + 1, title: "a")
        do {
            _ = try ScenarioImporter.skeleton(store: url, output: directory.url.appendingPathComponent("wide.yaml"))
            Issue.record("a skeleton of \(Limits.entities + 1) entities was made")
        } catch {
            #expect(error.description.contains("\(Limits.entities + 1) entities") && error.description.contains("at most \(Limits.entities)"),
                    "\(error)")
        }
    }

    @Test func aValueTooLongForAStepIsLeftOutAndSaidSo() throws {
        let directory = try TemporaryDirectory(prefix: "import-bounds-test")
        let long = String(repeating: "x", count: 1 << 20)
        let url = try store(directory, entities: 2, title: long)
        let output = directory.url.appendingPathComponent("long.yaml")
        let yaml = try ScenarioImporter.skeleton(store: url, output: output)
        #expect(yaml.utf8.count < 20_000, "the megabyte stays out of the file")
        #expect(yaml.contains("# e0001-1.title is left out: \(1 << 20) bytes"), "\(yaml)")
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: output.path)
        let reads = scenario.steps.compactMap { step -> [String: Value]? in
            if case .read(_, .values(let values, _)?, _) = step.step { values } else { nil }
        }
        // The other entity's short value is still read (as the extension the skeleton adds edits it); the long one is not.
        #expect(reads == [["title": .string("t (edited)")]])
    }
}
