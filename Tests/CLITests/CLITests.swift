import Foundation
import Testing
import SharedStore
import TestSupport

/// The command line as a user meets it: exit codes 0 (every run matched), 1 (some did not), 2 (the
/// harness could not decide, or the input is invalid), 64 (bad usage); the summary line; what
/// `validate`, `list`, `compare`, `--help` and `--version` print. Interrupts (130) are tested in
/// RunnerTests/InterruptTests. Expected transcripts are files under `Tests/Golden/CLI/`.
@Suite(.serialized, .spawnsProcesses) struct CLITests {
    @Test func aMatchedRunExitsZeroAndWritesItsReports() throws {
        let cli = try CLI()
        let result = try cli.run("run", "pass.yaml")
        #expect(result.status == 0)
        try golden.verify(result.transcript, named: "run-pass.txt")
        for file in ["Reports/index.html", "Reports/pass/default/report.json", "Reports/pass/default/report.html",
                     "Reports/pass/default/junit.xml", "Reports/pass/default/trace.jsonl"] {
            #expect(cli.exists(file), "\(file)")
        }
    }

    @Test func aRunThatDoesNotMatchExitsOneAndSaysHowToReplayIt() throws {
        let result = try CLI().run("run", "notmatched.yaml")
        #expect(result.status == 1)
        try golden.verify(result.transcript, named: "run-notmatched.txt")
    }

    @Test func aHarnessErrorExitsTwoAndNamesTheStep() throws {
        let result = try CLI().run("run", "harness.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "run-harness.txt")
    }

    /// Runs of several files: the worst status wins, and the summary counts every run.
    @Test func theWorstRunDecidesTheExitStatus() throws {
        let result = try CLI().run("run", "pass.yaml", "notmatched.yaml", "--jobs", "2")
        #expect(result.status == 1)
        #expect(result.stdout.contains("Summary: 1 of 2 runs matched\n"))
    }

    @Test func anInvalidFileRunsNothingAndExitsTwo() throws {
        let cli = try CLI()
        let result = try cli.run("run", "bad.yaml", "pass.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "run-invalid.txt")
        #expect(!cli.exists("Reports"))
    }

    @Test func validateReportsEveryFileAndExitsTwoOnAnError() throws {
        let cli = try CLI()
        let result = try cli.run("validate", "bad.yaml", "pass.yaml")
        #expect(result.status == 2)
        try golden.verify(result.transcript, named: "validate.txt")
        #expect(try cli.run("validate", "pass.yaml").status == 0)
    }

    /// The console's replay line, and the reports', start groupsim as this one was started: a binary outside a package's
    /// `.build` by the path it was started with (a build of the package through `swift run`, in its
    /// configuration: the golden transcripts, from the debug build, say `swift run groupsim`).
    @Test func theReplayLineStartsGroupsimAsItWasStarted() throws {
        let cli = try CLI()
        try FileManager.default.createSymbolicLink(atPath: cli.directory.url.appendingPathComponent("gs").path,
                                                   withDestinationPath: BuiltProducts.executable("groupsim"))
        let result = try cli.shell("./gs run notmatched.yaml")
        #expect(result.status == 1)
        #expect(result.stdout.contains("  replay: ./gs run notmatched.yaml --variant default --seed 1\n"), "\(result.stdout)")
        // The reports say the same: a reader of a CI artifact pastes the build that ran.
        let folder = cli.directory.url.appendingPathComponent("Reports/notmatched/default")
        for file in ["summary.md", "report.json", "junit.xml", "report.html"] {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("./gs run notmatched.yaml --variant default --seed 1"), "\(file)")
            #expect(!text.contains("swift run groupsim"), "\(file)")
        }
        #expect(try cli.run("run", "notmatched.yaml").stdout.contains("  replay: swift run groupsim run notmatched.yaml"))
    }

    @Test func listShowsTheValidScenarios() throws {
        let cli = try CLI()
        let result = try cli.run("list", "pass.yaml", "notmatched.yaml")
        #expect(result.status == 0)
        try golden.verify(result.transcript, named: "list.txt")
        #expect(try cli.run("list", ".").status == 2, "the folder holds bad.yaml")
    }

    @Test func compareWritesAMatrixPerStrategy() throws {
        let cli = try CLI()
        let result = try cli.run("compare", "pass.yaml", "--strategies", "none", "history")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("| refresh: none |") && result.stdout.contains("| refresh: history |"), "named as the YAML says")
        #expect(result.stdout.contains("Recommended: refresh: "), "\(result.stdout)")
        #expect(cli.exists("Reports/pass/compare/compare.html"))
        #expect(cli.exists("Reports/pass/compare/compare.md"))
        let index = try String(contentsOf: cli.directory.url.appendingPathComponent("Reports/index.html"), encoding: .utf8)
        #expect(index.contains("href=\"pass/compare/compare.html\""), "the index links the comparison")
        #expect(!result.stdout.contains("NOT MATCHED"), "strategies are measured, not judged against the file's expect")
        let unknown = try cli.run("compare", "pass.yaml", "--strategies", "sometimes")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown strategy 'sometimes'"))
    }

    @Test func helpAndVersion() throws {
        let cli = try CLI()
        let help = try cli.run("--help")
        #expect(help.status == 0)
        try golden.verify(help.transcript, named: "help.txt")
        let version = try cli.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("groupsim "))
        let unknown = try cli.run("rnu")
        #expect(unknown.status == 64)
    }
}

/// What `run` prints, and when; the index that accumulates across invocations.
@Suite(.serialized, .spawnsProcesses) struct CLIOutputTests {
    /// A scenario whose one run takes a second of real time.
    static let slow = """
    summary: Slow.
    store: { group: group.cli, name: Notes, model: { Note: { title: string } } }
    processes:
      app: { role: host }
    steps:
      - app: launch
      - sleep: 1s
    """

    @Test func eachRunIsPrintedWhenItFinishesNotAtTheEnd() throws {
        let cli = try CLI()
        try Data(Self.slow.utf8).write(to: cli.directory.url.appendingPathComponent("slow.yaml"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("groupsim"))
        process.arguments = ["run", "pass.yaml", "slow.yaml"]
        process.currentDirectoryURL = cli.directory.url
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first run's line arrives while the second run (a second of sleep) is still going.
        var first = Data()
        while !first.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("pass / default: matched"))
        #expect(process.isRunning, "the second run had not finished when the first line came")
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func jsonPrintsOneObjectPerRunAndTheSummaryGoesToStderr() throws {
        let result = try CLI().run("run", "pass.yaml", "notmatched.yaml", "--format", "json")
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["verdict"] != nil && object?["run"] != nil && object?["report"] != nil)
        }
        #expect(result.stderr.contains("Summary: 1 of 2 runs matched"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CLI.script)))
    func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let cli = try CLI()
        let piped = try cli.run("run", "pass.yaml")
        #expect(!piped.stdout.contains("\u{1B}["))
        let terminal = try cli.runOnTerminal(["run", "pass.yaml"])
        #expect(terminal.stdout.contains("\u{1B}[32mmatched"))
        let noColor = try cli.runOnTerminal(["run", "pass.yaml"], environment: ["NO_COLOR": "1"])
        #expect(noColor.stdout.contains("matched") && !noColor.stdout.contains("\u{1B}[32m"))
    }

    @Test func quietPrintsOnlyWhatDidNotMatch() throws {
        let result = try CLI().run("run", "pass.yaml", "notmatched.yaml", "--quiet")
        #expect(!result.stdout.contains("pass / default"))
        #expect(!result.stdout.hasPrefix("\n"), "a matched run leaves no empty line behind")
        #expect(result.stdout.contains("notmatched / default: NOT MATCHED"))
    }

    @Test func theIndexKeepsTheRunsOfEarlierInvocations() throws {
        let cli = try CLI()
        _ = try cli.run("run", "pass.yaml")
        _ = try cli.run("run", "notmatched.yaml")
        let index = try String(contentsOf: cli.directory.url.appendingPathComponent("Reports/index.html"), encoding: .utf8)
        #expect(index.contains("pass/default/report.html") && index.contains("notmatched/default/report.html"))
        let junit = try String(contentsOf: cli.directory.url.appendingPathComponent("Reports/junit.xml"), encoding: .utf8)
        #expect(junit.contains("tests=\"2\""))
    }

    @Test func anUnknownVariantGetsASuggestion() throws {
        let result = try CLI().run("run", "pass.yaml", "--variant", "defualt")
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'default'"))
    }

    @Test func shardsOneTwoAndThreeOfThreeRunEveryRunExactlyOnce() throws {
        let cli = try CLI()
        var seen: [String] = []
        for number in 1...3 {
            let result = try cli.run("run", "pass.yaml", "notmatched.yaml", "harness.yaml", "--deterministic",
                                     "--shard", "\(number)/3", "--format", "json")
            for line in result.stdout.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let run = try #require(object["run"] as? [String: Any])
                seen.append("\(run["scenario"] ?? "") / \(run["variant"] ?? "")")
            }
        }
        #expect(seen.sorted() == ["harness / default", "notmatched / default", "pass / default"])
        let bad = try cli.run("run", "pass.yaml", "--shard", "0/3")
        #expect(bad.status == 64 && bad.stderr.contains("--shard takes n/m with 1 <= n <= m"))
    }
}

/// `groupsim inspect`: a store's model, objects and history, as text or one JSON object.
@Suite(.serialized, .spawnsProcesses) struct InspectCommandTests {
    /// A store with two notes and a tag, written with history by the `share` bundle.
    private func store(in cli: CLI) throws -> String {
        let url = cli.directory.url.appendingPathComponent("Notes.sqlite")
        let store = try StoreCoordinator(url: url, model: try Model(.notesExample),
                                         options: StoreOptions(historyTracking: true, bundleIdentifier: "share"))
        for title in ["A", "B"] { _ = try store.viewContext.insert("Note", values: ["title": .string(title)]) }
        _ = try store.viewContext.insert("Tag", values: ["name": "t"])
        try store.viewContext.save()
        return url.path
    }

    @Test func jsonHasTheEntitiesWithTheirCountsAndTheHistory() throws {
        let cli = try CLI()
        let result = try cli.run("inspect", try store(in: cli), "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entities = try #require(object["entities"] as? [[String: Any]])
        #expect(entities.map { $0["name"] as? String } == ["Note", "Tag"])
        #expect(entities.map { $0["count"] as? Int } == [2, 1])
        let history = try #require(object["history"] as? [String: Any])
        #expect(history["transactions"] as? Int == 1 && history["changes"] as? Int == 3)
    }

    @Test func textSaysWhatTheStoreHoldsAndWhatLooksWrong() throws {
        let cli = try CLI()
        let result = try cli.run("inspect", try store(in: cli))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Note (Z_ENT 1, table ZNOTE): 2 objects, keys up to 2"), "\(result.stdout)")
        #expect(result.stdout.contains("History: 1 transaction, 3 changes (3 inserts, 0 updates, 0 deletes), tokens 1 to 1"))
        #expect(result.stdout.contains("bundle ids: share 1"))
        #expect(result.stdout.contains("Problems: none"), "three changes for three objects: no finding yet")
    }

    @Test func rowsShowsTheFirstRowsBoundedAndEscaped() throws {
        let cli = try CLI()
        let url = cli.directory.url.appendingPathComponent("Rows.sqlite")
        let store = try StoreCoordinator(url: url, model: try Model(.notesExample), options: StoreOptions(historyTracking: true))
        for title in ["\u{1B}[2Jcleared", String(repeating: "x", count: 200), "third"] {
            _ = try store.viewContext.insert("Note", values: ["title": .string(title)])
        }
        try store.viewContext.save()
        let result = try cli.run("inspect", url.path, "--rows", "2")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("rows (the first 2 by key):"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"), "a store's text never reaches the terminal raw")
        #expect(result.stdout.contains("title \"" + String(repeating: "x", count: 80) + "…\""), "cut at 80 characters")
        #expect(!result.stdout.contains("third"), "two rows only")
        #expect(result.stdout.contains("Tag (Z_ENT 2, table ZTAG): 0 objects, keys up to 0\n    attributes: name string\n    rows: none"))
        let json = try cli.run("inspect", url.path, "--rows", "1", "--json")
        #expect(json.stdout.contains("\"samples\""), "\(json.stdout)")
        let tooMany = try cli.run("inspect", url.path, "--rows", "1001")
        #expect(tooMany.status == 64 && tooMany.stderr.contains("--rows takes 0 to 1000"))
    }

    @Test func historyThatOutweighsTheDataIsAProblem() throws {
        let cli = try CLI()
        let path = try store(in: cli)
        let store = try StoreCoordinator(url: URL(fileURLWithPath: path), model: try Model(.notesExample),
                                         options: StoreOptions(historyTracking: true, bundleIdentifier: "share"))
        let note = try #require(try store.viewContext.fetch(FetchRequest(entity: "Note")).first)
        for title in ["C", "D"] {
            try store.viewContext.setValue(.string(title), forKey: "title", of: note)
            try store.viewContext.save()
        }
        let result = try cli.run("inspect", path)
        #expect(result.stdout.contains("- history was never purged: all 3 transactions since the store was made are kept, "
            + "5 changes for 3 objects"), "\(result.stdout)")
    }

    @Test func aFileThatIsNoStoreExitsOneAndNamesIt() throws {
        let cli = try CLI()
        let result = try cli.run("inspect", "pass.yaml")
        #expect(result.status == 1)
        #expect(result.stderr.contains("groupsim inspect: pass.yaml: not a SQLite database"), "\(result.stderr)")
        #expect(!result.stderr.contains("SELECT"), "no SQL statement in the message")
    }
}

/// `groupsim import`: a scenario skeleton from a store in Core Data's layout, that validates and runs.
@Suite(.serialized, .spawnsProcesses) struct ImportCommandTests {
    /// A store in Core Data's layout (plain SQL from Docs/SharedStore.md, "The file") whose history names the app, its
    /// share extension and its widget by bundle id.
    private func deviceStore(in cli: CLI) throws -> (path: String, connection: SQLiteConnection) {
        let url = cli.directory.url.appendingPathComponent("device/Notes.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: url.path, walMode: false)
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 2), (16001, 'CHANGE', 0, 4), (16002, 'TRANSACTION', 0, 3),
              (16003, 'TRANSACTIONSTRING', 0, 3);
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZTITLE VARCHAR );
            INSERT INTO ZNOTE VALUES (1, 1, 2, 1, 'Groceries'), (2, 1, 2, 2, 'Trip');
            \(CoreDataLayout.historyTables)
            INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, 'com.example.notes'), (2, 16003, 1, 'com.example.notes.ShareExtension'),
              (3, 16003, 1, 'com.example.notes.NotesWidget');
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, NULL, 1, NULL, NULL, 700000000.25, NULL, NULL, NULL, NULL, NULL),
              (2, 16002, 1, NULL, 2, NULL, NULL, 700000100.5, NULL, NULL, NULL, NULL, NULL),
              (3, 16002, 1, NULL, 3, NULL, NULL, 700000200.5, NULL, NULL, NULL, NULL, NULL);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1, NULL), (2, 16001, 1, 0, 1, 2, 1, NULL),
              (3, 16001, 1, 1, 1, 1, 2, X'02'), (4, 16001, 1, 1, 1, 2, 3, NULL);
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "F0E1D2C3-B4A5-4968-8776-655443322110", entities: ["Note"]))
        return (url.path, db)
    }

    @Test func theSkeletonNamesTheWritersReplaysTheirUpdatesAndRuns() throws {
        let cli = try CLI()
        let (path, device) = try deviceStore(in: cli)
        defer { device.close() }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        // Its own temporary directory, to find what it leaves there: another groupsim (a test beside this
        // one, another run on the machine) may have its scratch directory in the shared one meanwhile.
        let scratch = cli.directory.url.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let result = try cli.run("import", path, "-o", "bug.yaml", environment: ["TMPDIR": scratch.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("bug.yaml"), encoding: .utf8)
        #expect(text.contains("file: \"device/Notes.sqlite\""), "relative to the skeleton's directory")
        #expect(text.contains("app: { role: host, author: none }"), "\(text)")
        #expect(text.contains("shareextension: { role: share, author: none }"), "\(text)")
        #expect(text.contains("noteswidget: { role: widget, author: none }"), "\(text)")
        #expect(text.contains("- shareextension: { update: note-1, set: { title: \"Groceries\" } }"), "the updated property, as it is now")
        #expect(text.contains("- noteswidget: { update: note-2, set: { rank: 2, title: \"Trip\" } }"), "no columns recorded: every attribute")
        #expect(text.contains("- app: { count: Note, expect: 2 }"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the store is never written")

        // The history changes nothing the store does not hold: the share extension's added edit is what an
        // app that never refreshes misses, and every other strategy shows.
        #expect(text.contains("- shareextension: { update: note-1, set: { rank: 2 } }"), "\(text)")
        let run = try cli.run("run", "bug.yaml", "--report-dir", "reports", environment: ["TMPDIR": scratch.path])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("refresh-none: NOT MATCHED  stale-read") && run.stdout.contains("3 of 4 runs matched"), "\(run.stdout)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
            .filter { $0.hasPrefix("groupsim-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// A store with a sub-entity: its history names rows by their own entity, and a count of the parent
    /// counts the sub-entity's objects too.
    @Test func aStoreWithSubEntitiesImportsAndRuns() throws {
        let cli = try CLI()
        let url = cli.directory.url.appendingPathComponent("device/Books.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let db = try SQLiteConnection(path: url.path, walMode: false)
        defer { db.close() }
        try db.execute("PRAGMA journal_mode=WAL")
        try db.execute("""
            \(CoreDataLayout.storeTables)
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 2), (2, 'GraphicNovel', 1, 0), (16001, 'CHANGE', 0, 3),
              (16002, 'TRANSACTION', 0, 2), (16003, 'TRANSACTIONSTRING', 0, 2);
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZARTIST VARCHAR, ZTITLE VARCHAR );
            CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT);
            INSERT INTO ZBOOK VALUES (1, 1, 1, NULL, 'Dune'), (2, 2, 2, 'Dave Gibbons', 'Watchmen');
            \(CoreDataLayout.historyTables)
            INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, 'com.example.books'), (2, 16003, 1, 'com.example.books.ShareExtension');
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, NULL, 1, NULL, NULL, 700000000.25, NULL, NULL, NULL, NULL, NULL),
              (2, 16002, 1, NULL, 2, NULL, NULL, 700000100.5, NULL, NULL, NULL, NULL, NULL);
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1, NULL), (2, 16001, 1, 0, 2, 2, 1, NULL),
              (3, 16001, 1, 1, 2, 2, 2, NULL);
            """)
        try db.execute(try CoreDataLayout.metadataRow(identifier: "0A1B2C3D-4E5F-4061-8272-839405A6B7C8", entities: ["Book", "GraphicNovel"]))
        let result = try cli.run("import", url.path, "-o", "books.yaml")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("books.yaml"), encoding: .utf8)
        #expect(text.contains("#   GraphicNovel (a sub-entity of Book, with its properties): "), "\(text)")
        #expect(text.contains("- shareextension: { update: graphicnovel-2, set: { artist: \"Dave Gibbons\", title: \"Watchmen\" } }"), "\(text)")
        #expect(text.contains("- app: { count: Book, expect: 2 }") && text.contains("- app: { count: GraphicNovel, expect: 1 }"), "\(text)")
        let run = try cli.run("run", "books.yaml", "--report-dir", "reports")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("refresh-none: NOT MATCHED  stale-read") && run.stdout.contains("3 of 4 runs matched"), "\(run.stdout)")
    }

    @Test func anExistingOutputOrAnUnreadableStoreExitsOne() throws {
        let cli = try CLI()
        let (path, device) = try deviceStore(in: cli)
        defer { device.close() }
        let exists = try cli.run("import", path, "-o", "pass.yaml")
        #expect(exists.status == 1 && exists.stderr.contains("pass.yaml exists; pass --force"), "\(exists.stderr)")
        let missing = try cli.run("import", "nope.sqlite", "-o", "new.yaml")
        #expect(missing.status == 1 && missing.stderr.contains("groupsim import: nope.sqlite:"), "\(missing.stderr)")
        let notAStore = try cli.run("import", "pass.yaml", "-o", "new.yaml")
        #expect(notAStore.status == 1 && !FileManager.default.fileExists(atPath: cli.directory.url.appendingPathComponent("new.yaml").path))
        // The path is named once, not again by the reason.
        #expect(notAStore.stderr.hasPrefix("groupsim import: pass.yaml: not a SQLite database"), "\(notAStore.stderr)")
        let noFolder = try cli.run("import", path, "-o", "nowhere/new.yaml")
        #expect(noFolder.status == 1 && noFolder.stderr.contains("cannot write nowhere/new.yaml: the folder ")
                && noFolder.stderr.contains("/nowhere does not exist; make it first."), "\(noFolder.stderr)")
        let itself = try cli.run("import", path, "-o", path, "--force")
        #expect(itself.status == 1 && itself.stderr.contains("is the store's own file"), "\(itself.stderr)")
        let directory = try cli.run("import", path, "-o", "device", "--force")
        #expect(directory.status == 1 && directory.stderr.contains("is not a regular file"), "\(directory.stderr)")
        let tooMany = try cli.run("import", path, "-o", "new.yaml", "--transactions", "0")
        #expect(tooMany.status == 1 && tooMany.stderr.contains("--transactions must be between 1 and 10000"))
    }

    /// Issue 34's example: a folder name that holds a line of YAML, and an author that holds a terminal's
    /// escape sequences. The skeleton's top-level keys are its own, and `inspect` prints no raw control
    /// character.
    @Test func aHostileFolderNameAndAuthorStayText() throws {
        let cli = try CLI()
        let (path, device) = try deviceStore(in: cli)
        try device.execute("UPDATE ATRANSACTIONSTRING SET ZNAME = 'com.example.notes.Share' || char(10) || 'expect: [busy]' || char(27) || '[2J' WHERE Z_PK = 2")
        device.close()
        let hostile = cli.directory.url.appendingPathComponent("dir\nexpect: [data-loss]\n#")
        try FileManager.default.moveItem(at: URL(fileURLWithPath: path).deletingLastPathComponent(), to: hostile)
        let store = hostile.appendingPathComponent("Notes.sqlite").path
        let result = try cli.run("import", store, "-o", "out.yaml")
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: cli.directory.url.appendingPathComponent("out.yaml"), encoding: .utf8)
        let topLevel = text.split(separator: "\n").filter { line in line.first.map { $0.isLetter } == true }.map { $0.prefix { $0 != ":" } }
        #expect(Set(topLevel) == ["name", "summary", "store", "processes", "steps", "variants"], "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B }, "\(text)")
        let validate = try cli.run("validate", "out.yaml")
        #expect(validate.status == 0 && validate.stdout.contains("4 runs"), "\(validate.stdout)\(validate.stderr)")
        let inspect = try cli.run("inspect", store)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(!inspect.stdout.unicodeScalars.contains { $0.value == 0x1B }, "no raw escape reaches the terminal")
        #expect(inspect.stdout.contains("\\u{1B}[2J"), "shown as an escape instead: \(inspect.stdout)")
    }
}

/// `validate` and `run` refuse a file whose waits pass the 1-hour bound only with the reloads the system runs
/// on its own, as they refuse any invalid file: at the step, with exit 2, running nothing.
@Suite(.serialized, .spawnsProcesses) struct OverlongReloadWaitCLITests {
    @Test func validateAndRunRefuseAFileWhosePolicyReloadsWaitPastTheLimit() throws {
        let cli = try CLI()
        let yaml = """
        summary: A timeline reloaded every 30 minutes, each reload checking for 25 minutes.
        store: { group: group.example.notes, name: Notes, model: { Note: { title: string } } }
        processes:
          app: { role: host }
          widget:
            role: widget
            timeline-policy: { after: 30m }
            on-reload: [ { fetch: Note }, { count: Note, expect: 9, within: 25m } ]
        steps:
          - app: launch
          - app: { reload-timelines: widget }
          - clock: { advance: 31m }
          - clock: { advance: 31m }
          - clock: { advance: 31m }

        """
        try yaml.write(to: cli.directory.url.appendingPathComponent("reloads.yaml"), atomically: true, encoding: .utf8)
        let validate = try cli.run("validate", "reloads.yaml")
        #expect(validate.status == 2)
        #expect(validate.stderr.contains("reloads.yaml:13:5: error: the steps up to here, with the reloads the system runs on its own"),
                "\(validate.stderr)")
        let run = try cli.run("run", "reloads.yaml")
        #expect(run.status == 2 && !cli.exists("Reports"), "\(run.stdout)\(run.stderr)")
    }
}
