import Basics
import Foundation
import SharedStore
import Testing
import TestSupport

/// `groupsim import` on stores as they come from devices: any file name, a relationship the schema cannot
/// place, no history, a store beside rather than under the scenario; the skeleton validates and its runs
/// decide, with a second process that can show a two-process bug.
@Suite(.serialized, .spawnsProcesses) struct ImportReproducesTests {
    /// A Core Data store with no history: `Car.owner` (ZOWNER) points at a `Person` the schema cannot name.
    private func carsStore(in cli: CLI, named name: String) throws -> URL {
        let url = cli.directory.url.appendingPathComponent("device/\(name)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: url.path, walMode: false)
        defer { db.close() }
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("""
            \(CoreDataLayout.storeTables)
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Car', 0, 2), (2, 'Person', 0, 1);
            CREATE TABLE ZCAR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, ZPLATE VARCHAR, ZSEATS INTEGER );
            CREATE INDEX ZCAR_ZOWNER_INDEX ON ZCAR (ZOWNER);
            CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            INSERT INTO ZCAR VALUES (1, 1, 1, 1, 'AB-123', 4), (2, 1, 1, 1, 'CD-456', 2);
            INSERT INTO ZPERSON VALUES (1, 2, 1, 'Ada');
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "5B1C2D3E-4F50-4162-8374-95A6B7C8D9E0", entities: ["Car", "Person"]))
        return url
    }

    @Test func anOddlyNamedStoreWithoutHistoryImportsToASkeletonWhoseRunsDecide() throws {
        let cli = try CLI()
        let url = try carsStore(in: cli, named: "EasyLife_1.3.0 (copy).sqlite")
        try FileManager.default.createDirectory(at: cli.directory.url.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        let result = try cli.run("import", url.path, "-o", "scenarios/cars.yaml")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("scenarios/cars.yaml"), encoding: .utf8)
        #expect(text.contains("name: imported-easylife-1-3-0-copy"), "a kebab-case name from any file name")
        #expect(text.contains("file: \"../device/EasyLife_1.3.0 (copy).sqlite\""), "relative to the scenario: \(text)")
        #expect(text.contains("# Car.owner (column ZOWNER): the schema does not tell where it points"), "a question, not a refusal")
        #expect(text.contains("      owner: int?"), "kept as the key it holds, in a declared model: \(text)")
        #expect(text.contains("car-1: \"Car 1\"") && text.contains("person-1: \"Person 1\""), "objects named from the rows: \(text)")
        #expect(text.contains("share: { role: share, author: none }"), "a second process: \(text)")
        #expect(text.contains("- share: { update: car-1, set: { plate: \"AB-123 (edited)\" } }"), "\(text)")
        #expect(text.contains("- app: { read: car-1, expect: { owner: 1, plate: \"AB-123 (edited)\", seats: 4 }, within: 1s }"), "\(text)")

        let validate = try cli.run("validate", "scenarios/cars.yaml")
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let run = try cli.run("run", "scenarios/cars.yaml", "--deterministic", "--report-dir", "reports")
        #expect(run.status == 0 || run.status == 1, "the runs decide: \(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("HARNESS ERROR") && run.stdout.contains("of 4 runs matched"), "\(run.stdout)")
        #expect(run.stdout.contains("refresh-none: NOT MATCHED  stale-read"), "the app that never refreshes reads the old plate: \(run.stdout)")
        #expect(run.stdout.contains("history: matched"), "\(run.stdout)")
    }

    @Test func aModelFileResolvesWhatTheSchemaCannotTell() throws {
        let cli = try CLI()
        let url = try carsStore(in: cli, named: "Cars.sqlite")
        try "Car: { plate: string?, seats: int?, owner: Person? }\nPerson: { name: string?, cars: [Car] }\n"
            .write(to: cli.directory.url.appendingPathComponent("model.yaml"), atomically: true, encoding: .utf8)
        let result = try cli.run("import", url.path, "-o", "cars.yaml", "--model", "model.yaml")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("cars.yaml"), encoding: .utf8)
        #expect(text.contains("      owner: Person?") && text.contains("      cars: \"[Car]\""), "\(text)")
        #expect(!text.contains("does not tell where"), "\(text)")
        let validate = try cli.run("validate", "cars.yaml")
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")

        try "Car: { plate: strin }\n".write(to: cli.directory.url.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let bad = try cli.run("import", url.path, "-o", "other.yaml", "--model", "bad.yaml")
        #expect(bad.status == 1 && bad.stderr.contains("bad.yaml:1:"), "a bad model file is named at its line: \(bad.stderr)")
    }

    /// The app's own `.xcdatamodeld` (its current version, as `.xccurrentversion` names it) resolves the
    /// relationship, keeps Core Data's spelling of names, and says what the scenario language cannot hold.
    @Test func theAppsXcodeModelResolvesWhatTheSchemaCannotTell() throws {
        let cli = try CLI()
        let url = try carsStore(in: cli, named: "Cars.sqlite")
        let package = cli.directory.url.appendingPathComponent("Cars.xcdatamodeld")
        let old = package.appendingPathComponent("Cars.xcdatamodel"), current = package.appendingPathComponent("Cars 2.xcdatamodel")
        for folder in [old, current] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try "<model><entity name=\"Old\"><attribute name=\"x\" attributeType=\"String\"/></entity></model>"
            .write(to: old.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Car" representedClassName="Car" syncable="YES">
                    <attribute name="plate" optional="YES" attributeType="String"/>
                    <attribute name="seats" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="photo" optional="YES" attributeType="Binary"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="Person" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="cars" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
                </entity>
            </model>
            """.write(to: current.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Cars 2.xcdatamodel</string></dict></plist>
            """.write(to: package.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        let result = try cli.run("import", url.path, "-o", "cars.yaml", "--model", "Cars.xcdatamodeld")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Car.photo is Binary, a type the scenario language does not have: left out"), "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("cars.yaml"), encoding: .utf8)
        #expect(text.contains("      owner: Person?") && text.contains("      cars: \"[Car] cascade\""), "\(text)")
        #expect(!text.contains("Old:") && !text.contains("does not tell where"), "the current version, not the last by name: \(text)")
        let run = try cli.run("run", "cars.yaml", "--deterministic", "--report-dir", "reports")
        #expect(!run.stdout.contains("HARNESS ERROR") && run.stdout.contains("of 4 runs matched"), "\(run.stdout)\(run.stderr)")
        // inspect takes the same model to place what the schema does not tell.
        let bare = try cli.run("inspect", url.path)
        #expect(bare.stdout.contains("owner -> (destination unknown) (ZOWNER)"), "\(bare.stdout)")
        let spelled = try cli.run("inspect", url.path, "--model", "Cars.xcdatamodeld/Cars 2.xcdatamodel")
        #expect(spelled.status == 0 && spelled.stdout.contains("owner -> Person (ZOWNER)"), "\(spelled.stdout)\(spelled.stderr)")
    }

    @Test func aStoreWithAViewWhereCoreDataHasATableIsRefusedNotReadForever() throws {
        let cli = try CLI()
        let url = try carsStore(in: cli, named: "Views.sqlite")
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("""
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER,
              ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR,
              ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER,
              ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, 1, 1, NULL, NULL, 700000000.25, NULL, NULL, NULL, NULL, NULL);
            CREATE VIEW ATRANSACTIONSTRING AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
              SELECT x AS Z_PK, 16003 AS Z_ENT, 1 AS Z_OPT, 'a' AS ZNAME FROM n;
            """)
        db.close()
        let result = try cli.run("import", url.path, "-o", "views.yaml")
        #expect(result.status == 1 && result.stderr.contains("holds a view ('ATRANSACTIONSTRING')"), "\(result.stderr)")
        // inspect reads the tables and names the view among the problems.
        let inspected = try cli.run("inspect", url.path)
        #expect(inspected.status == 0 && inspected.stdout.contains("the store holds a view ('ATRANSACTIONSTRING'), which Core Data never makes"),
                "\(inspected.transcript)")
    }
}
