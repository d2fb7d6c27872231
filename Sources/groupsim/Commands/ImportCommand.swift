import ArgumentParser
import Basics
import Foundation
import ScenarioModel
import Supervisor

/// `groupsim import STORE.sqlite -o my-bug.yaml`: a scenario skeleton that starts from a device's store and
/// replays the history it recorded, one process per writer.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a scenario skeleton that starts from a store and replays its recorded history.",
        discussion: """
            Reads a .sqlite store (with its -wal beside it) as Core Data wrote it, from a copy: the file is \
            never written. The skeleton starts every run from that store (store: { from: }, the model read \
            off its schema), declares one process per bundle id (else author) its history names, with a role \
            guessed from the bundle id, and replays the newest transactions as those processes' saves, with \
            one variant per refresh strategy of the app. Updates set the values the rows hold now (history \
            keeps which properties changed, not their values); inserts and deletes are comments. A history \
            with no writer but the app gets an extension that edits an object the app then reads. A \
            relationship whose destination the schema does not tell is kept as an int, with a comment; \
            --model gives the model instead (a scenario's, or the app's Xcode model). Exit status: \
            0 when the skeleton was written, 1 when the store could not be read or the output not written.
            """
    )

    @Argument(help: "The store's .sqlite file.")
    var store: String

    @Option(name: [.short, .customLong("output")], help: "The scenario file to write (it must not exist yet, unless --force).")
    var output: String

    @Option(help: ArgumentHelp("The model to use instead of the one the schema shows: a scenario file, a YAML file of the model (Note: { title: string }), or the app's Xcode model (a .xcdatamodeld, one .xcdatamodel version, or its contents file).", valueName: "path"))
    var model: String?

    @Option(help: "How many of the newest history transactions become steps (1 to 10000).")
    var transactions = 200

    @Flag(help: "Replace the output file when it exists.")
    var force = false

    func run() throws {
        try refuseNameThatIsNotUTF8(store, command: "groupsim import")
        guard (1...10_000).contains(transactions) else {
            printError("groupsim import: --transactions must be between 1 and 10000, not \(transactions).")
            throw ExitCode(1)
        }
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let fm = FileManager.default
        let storeFiles = ["", "-wal", "-shm", "-journal"].map { URL(fileURLWithPath: store + $0).resolvingSymlinksInPath().path }
        if storeFiles.contains(outputURL.resolvingSymlinksInPath().path) {
            printError("groupsim import: \(VisibleText.escaped(output)) is the store's own file; write the scenario elsewhere.")
            throw ExitCode(1)
        }
        if fm.fileExists(atPath: outputURL.path) {
            let type = (try? fm.attributesOfItem(atPath: outputURL.resolvingSymlinksInPath().path))?[.type] as? FileAttributeType
            guard type == .typeRegular else {
                printError("groupsim import: \(VisibleText.escaped(output)) exists and is not a regular file (a directory or a device); write the scenario elsewhere.")
                throw ExitCode(1)
            }
            guard force else {
                printError("groupsim import: \(VisibleText.escaped(output)) exists; pass --force to replace it.")
                throw ExitCode(1)
            }
        }
        // Said before the store is read: the folder to write in must be there.
        var isDirectory: ObjCBool = false
        let folder = outputURL.deletingLastPathComponent()
        guard fm.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("groupsim import: cannot write \(VisibleText.escaped(output)): the folder \(VisibleText.escaped(folder.path)) does not exist; make it first.")
            throw ExitCode(1)
        }
        // The copies it reads are removed on Ctrl-C and on SIGTERM too.
        ProcessGuard.installCleanupHandlers(grace: .seconds(1))
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("groupsim-import-\(UUID().uuidString)", isDirectory: true)
        let token = CleanupRegistry.shared.add { try? FileManager.default.removeItem(at: scratch) }
        defer {
            CleanupRegistry.shared.remove(token)
            try? FileManager.default.removeItem(at: scratch)
        }
        var given: ModelDescription?
        if let model {
            do {
                let read = try ScenarioLoader.model(contentsOf: URL(fileURLWithPath: model))
                given = read.model
                for note in read.notes { printError("note: \(VisibleText.escaped(model)): \(note)") }
            } catch {
                printError(error.errors.map(\.description).joined(separator: "\n"))
                throw ExitCode(1)
            }
        }
        let text: String
        do {
            text = try ScenarioImporter.skeleton(store: URL(fileURLWithPath: store), output: outputURL,
                                                 transactions: transactions, scratch: scratch, model: given)
        } catch {
            // A message that starts with the store's path already names it.
            var message = "\(error)"
            for path in [store, URL(fileURLWithPath: store).path] where message.hasPrefix(path + ": ") {
                message.removeFirst(path.count + 2)
                break
            }
            printError("groupsim import: \(VisibleText.escaped(store)): \(VisibleText.escaped(message))")
            throw ExitCode(1)
        }
        do {
            try text.write(to: outputURL, atomically: true, encoding: .utf8)
        } catch {
            printError("groupsim import: cannot write \(VisibleText.escaped(output)): \(VisibleText.escaped(error.localizedDescription))")
            throw ExitCode(1)
        }
        print("wrote \(VisibleText.escaped(output)): run it with groupsim run \(VisibleText.escaped(output))")
    }
}
