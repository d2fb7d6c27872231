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

    /// A history that names more writers than a scenario may have processes: the first ones the history
    /// names are processes of their own, the rest one process, and the skeleton validates (it was refused
    /// as "a bug in groupsim import").
    @Test func moreWritersThanAScenarioMayHaveAreMergedIntoOneProcess() throws {
        let directory = try TemporaryDirectory(prefix: "import-bounds-test")
        let url = directory.url.appendingPathComponent("Busy.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("\(CoreDataLayout.storeTables)\n\(CoreDataLayout.historyTables)")
        try db.execute("CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )")
        try db.execute("BEGIN")
        let writers = 100
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, \(writers)), (16001, 'CHANGE', 0, \(writers)), "
            + "(16002, 'TRANSACTION', 0, \(writers)), (16003, 'TRANSACTIONSTRING', 0, \(writers))")
        for i in 1...writers {
            try db.execute("INSERT INTO ZNOTE VALUES (\(i), 1, 1, 'n\(i)')")
            try db.execute("INSERT INTO ATRANSACTIONSTRING VALUES (\(i), 16003, 1, 'com.example.app.ext\(i)')")
            try db.execute("INSERT INTO ATRANSACTION VALUES (\(i), 16002, 1, NULL, \(i), NULL, NULL, \(700000000 + i), NULL, NULL, NULL, NULL, NULL)")
            try db.execute("INSERT INTO ACHANGE VALUES (\(i), 16001, 1, 0, 1, \(i), \(i), NULL)")
        }
        try db.execute("COMMIT")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "BUSY", entities: ["Note"]))
        db.close()
        let output = directory.url.appendingPathComponent("busy.yaml")
        let yaml = try ScenarioImporter.skeleton(store: url, output: output)
        let scenario = try ScenarioLoader.parse(yaml: yaml, file: output.path)
        #expect(scenario.processes.count <= Limits.processes)
        let merged = try #require(scenario.process(named: "other-writers"), "\(yaml)")
        #expect(merged.role == .action)
        #expect(yaml.contains("more writers the history names, one process here"), "\(yaml)")
    }

    /// The app's bundle id names the skeleton's app group only when it makes a name the language takes: a
    /// bundle id of 150 characters made a group name validation refused, blamed on import.
    @Test func aBundleIdTooLongForAGroupNameGivesTheImportedGroup() throws {
        let directory = try TemporaryDirectory(prefix: "import-bounds-test")
        let url = directory.url.appendingPathComponent("Long.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("\(CoreDataLayout.storeTables)\n\(CoreDataLayout.historyTables)")
        try db.execute("CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )")
        try db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1), (16001, 'CHANGE', 0, 1), (16002, 'TRANSACTION', 0, 1), "
            + "(16003, 'TRANSACTIONSTRING', 0, 1)")
        try db.execute("INSERT INTO ZNOTE VALUES (1, 1, 1, 'n1')")
        try db.cached("INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, ?)").run([.string("com.example." + String(repeating: "a", count: 150))])
        try db.execute("INSERT INTO ATRANSACTION VALUES (1, 16002, 1, NULL, 1, NULL, NULL, 700000001, NULL, NULL, NULL, NULL, NULL)")
        try db.execute("INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1, NULL)")
        try db.execute(try CoreDataLayout.metadataRow(identifier: "LONG", entities: ["Note"]))
        db.close()
        let output = directory.url.appendingPathComponent("long.yaml")
        let scenario = try ScenarioLoader.parse(yaml: try ScenarioImporter.skeleton(store: url, output: output), file: output.path)
        #expect(scenario.store.group == "group.imported")
    }
}
