import ArgumentParser
import Basics
import Foundation
import ScenarioModel
import SharedStore
import Supervisor

/// `groupsim inspect STORE.sqlite [--json]`: what a Core Data store (or a GroupSim one) holds, read from a
/// copy so the file itself is never written.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a Core Data store's model, objects, history, files and problems.",
        discussion: """
            Reads a .sqlite store (with its -wal and -shm beside it) as Core Data wrote it, from a simulator's \
            app-group container, a device backup or a sysdiagnose, or as GroupSim wrote it. The model is \
            inferred from the schema. The files are copied first and never written. Exit status: 0 when the \
            store was read (problems are findings, not failures), 1 when it could not be.
            """
    )

    @Argument(help: "The store's .sqlite file.")
    var store: String

    @Flag(help: "Print one JSON object (entities, history, files, problems) instead of text.")
    var json = false

    @Option(help: "Show each entity's first N rows by key (strings cut at 80 characters, data as its size); 0 to 1000.")
    var rows = 0

    @Option(help: ArgumentHelp("The app's model, to name entities and properties as it spells them (a column keeps only capitals) and to place relationships the schema does not: a .xcdatamodeld, one .xcdatamodel version or its contents file, or a scenario's model.", valueName: "path"))
    var model: String?

    func validate() throws {
        guard (0...1000).contains(rows) else { throw ValidationError("--rows takes 0 to 1000 rows per entity, not \(rows).") }
    }

    func run() throws {
        try refuseNameThatIsNotUTF8(store, command: "groupsim inspect")
        // The copy it reads is removed on Ctrl-C and on SIGTERM too.
        ProcessGuard.installCleanupHandlers(grace: .seconds(1))
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("groupsim-inspect-\(UUID().uuidString)", isDirectory: true)
        let token = CleanupRegistry.shared.add { try? FileManager.default.removeItem(at: scratch) }
        defer { CleanupRegistry.shared.remove(token) }
        var spelling: ModelDescription?
        if let model {
            do {
                spelling = try ScenarioLoader.model(contentsOf: URL(fileURLWithPath: model)).model
            } catch {
                printError(error.errors.map(\.description).joined(separator: "\n"))
                throw ExitCode(1)
            }
        }
        let inspection: StoreInspection
        do {
            inspection = try StoreInspector.inspect(URL(fileURLWithPath: store), scratch: scratch, sampleRows: rows, spelling: spelling)
        } catch {
            if error.code == .file, let reason = error.reason {
                printError("groupsim inspect: \(VisibleText.escaped(store)): \(VisibleText.escaped(reason))")
            } else {
                printError("groupsim inspect: \(VisibleText.escaped(store)): \(VisibleText.escaped("\(error)"))")
            }
            throw ExitCode(1)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            // With microseconds, as Core Data stores history timestamps.
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)))
            }
            print(String(decoding: try encoder.encode(inspection), as: UTF8.self))
        } else {
            print(InspectionText.render(inspection), terminator: "")
        }
    }
}

/// The text form of an inspection. Every name and path comes from someone else's file: each is printed
/// through `VisibleText`, so none can break a line or drive the terminal.
enum InspectionText {
    static func render(_ inspection: StoreInspection) -> String {
        let v = VisibleText.escaped
        var out = ""
        let layout = switch inspection.layout {
        case .coreData: "Core Data's layout" + (inspection.frameworkVersion.map { ", framework version \($0)" } ?? "")
        case .groupsim: "Core Data's layout, written by GroupSim"
        case .unknown: "unknown layout"
        }
        out += "\(v(inspection.path)) (\(layout))\n"
        if let identifier = inspection.identifier { out += "store identifier \(v(identifier))\n" }
        let files = inspection.files
        out += "files: .sqlite \(ByteSize.text(files.store)), -wal \(files.wal.map(ByteSize.text) ?? "absent"), "
            + "-shm \(files.shm.map(ByteSize.text) ?? "absent")\n"
        out += "\nEntities:\n"
        for entity in inspection.entities {
            let kind = entity.parent.map { "sub-entity of \(v($0)), " } ?? ""
            // A sub-entity takes its keys from its root's Z_PRIMARYKEY row; its own stays at 0.
            let root = entity.parent == nil ? nil : inspection.entities.first { $0.table == entity.table && $0.parent == nil }
            let keys = root.map { entity.maxPrimaryKey == 0 ? "keys from \(v($0.name))'s" : "keys up to \(entity.maxPrimaryKey)" }
                ?? "keys up to \(entity.maxPrimaryKey)"
            out += "  \(v(entity.name)) (Z_ENT \(entity.number), \(kind)table \(v(entity.table))): \(counted(entity.count, "object")), \(keys)\n"
            if !entity.attributes.isEmpty {
                out += "    attributes: " + entity.attributes.map { "\(v($0.name)) \($0.type)" }.joined(separator: ", ") + "\n"
            }
            if !entity.constraints.isEmpty {
                out += "    unique: " + entity.constraints.map { "[\($0.map(v).joined(separator: ", "))]" }.joined(separator: ", ") + "\n"
            }
            if let samples = entity.samples {
                let columns = (root ?? entity).attributes
                out += samples.isEmpty ? "    rows: none\n" : "    rows (the first \(samples.count) by key):\n"
                for sample in samples {
                    let values = zip(columns, sample.values).map { column, value in
                        "\(v(column.name)) \(value.map { column.type == "string" ? "\"\(v($0))\"" : v($0) } ?? "nil")"
                    }
                    out += "      Z_PK \(sample.primaryKey): \(values.joined(separator: ", "))\n"
                }
            }
            for relationship in entity.relationships {
                let destination = relationship.destination.map(v) ?? "(destination unknown)"
                out += "    \(v(relationship.name)) -> \(relationship.toMany ? "[\(destination)]" : destination)\(relationship.isOrdered ? " ordered" : "")"
                    + " (\(v(relationship.storage)))\n"
            }
        }
        if let history = inspection.history {
            out += "\nHistory: \(counted(history.transactions, "transaction")), \(counted(history.changes, "change")) "
                + "(\(history.inserts) inserts, \(history.updates) updates, \(history.deletes) deletes)"
            if let oldest = history.oldestToken, let newest = history.newestToken { out += ", tokens \(oldest) to \(newest)" }
            out += "\n"
            if let first = history.first, let last = history.last {
                let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
                out += "  from \(first.formatted(format)) to \(last.formatted(format))\n"
            }
            for (label, counts, unlisted) in [("authors", history.authors, history.unlistedAuthors),
                                              ("bundle ids", history.bundleIdentifiers, history.unlistedBundleIdentifiers),
                                              ("processes", history.processes, history.unlistedProcesses)] where !counts.isEmpty {
                out += "  \(label): " + counts.map { "\($0.name.map(v) ?? "(none)") \($0.transactions)" }.joined(separator: ", ")
                    + (unlisted > 0 ? ", and \(unlisted) more" : "") + "\n"
            }
        } else {
            out += "\nHistory: none (the store was never opened with history tracking)\n"
        }
        out += "\nProblems:" + (inspection.problems.isEmpty ? " none\n" : "\n")
        for problem in inspection.problems { out += "  - \(v(problem))\n" }
        return out
    }
}
