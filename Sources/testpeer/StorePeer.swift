import Basics
import Foundation
import SharedStore

/// `testpeer store`: another process on a SharedStore file, driven by argv.
///
/// ```
/// testpeer store <file.sqlite> [--history] [--author NAME] [--bundle ID] <command> [+ <command>]...
///   insert <Entity> key=value...     prints `inserted <Entity> <pk>` after the next save
///   update <pk|Entity/pk> key=value...
///   delete <pk|Entity/pk>
///   save                             prints `saved <op> <Entity> <pk> v<version>` per change
///   read <pk|Entity/pk>              prints `values key=value ...` (sorted)
///   count <Entity>                   prints `count <n>` (a fresh fetch)
///   hold-write <ms>                  holds the write lock (BEGIN IMMEDIATE) for ms, prints `holding`
///   crash-in-save                    the next save kills this process (SIGKILL) before COMMIT
///   sleep <ms>
///   merge-history <consumer>         prints `merged <n> token <t>` or `expired-token`
///   purge <none|consumed-by-all|own-token|older-than:SECONDS> [consumers...]
/// ```
/// Pending changes are saved at the end. Exit status: 0, 1 on a store error (printed on stderr), 2 on usage.
enum StorePeer {
    static func run(_ arguments: [String]) -> Int32 {
        guard let path = arguments.first else { return usage("missing store path") }
        var rest = Array(arguments.dropFirst())
        var options = StoreOptions()
        var author: String?
        while let flag = rest.first, flag.hasPrefix("--") {
            rest.removeFirst()
            switch flag {
            case "--history": options.historyTracking = true
            case "--author": author = rest.isEmpty ? nil : rest.removeFirst()
            case "--bundle": options.bundleIdentifier = rest.isEmpty ? nil : rest.removeFirst()
            default: return usage("unknown flag \(flag)")
            }
        }
        do {
            let store = try StoreCoordinator(url: URL(fileURLWithPath: path), model: Model(.notesExample),
                                             options: options)
            let context = store.viewContext
            context.transactionAuthor = author
            var session = Session(store: store, context: context)
            for command in rest.split(separator: "+").map(Array.init) where !command.isEmpty {
                try session.run(command)
            }
            if context.hasChanges { try session.run(["save"]) }
            return 0
        } catch let error as UsageError {
            return usage(error.message)
        } catch {
            FileHandle.standardError.write(Data("testpeer store: \(error)\n".utf8))
            return 1
        }
    }

    struct UsageError: Error { let message: String }

    /// Writes one line to stdout, unbuffered (the parent reads lines as they come).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func usage(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("testpeer store: \(message)\n".utf8))
        return 2
    }

    struct Session {
        let store: StoreCoordinator
        let context: ObjectContext
        var pendingInserts: [ObjectID] = []

        mutating func run(_ command: [String]) throws {
            let args = Array(command.dropFirst())
            switch command[0] {
            case "insert":
                guard let entity = args.first else { throw UsageError(message: "insert needs an entity") }
                pendingInserts.append(try context.insert(entity, values: values(Array(args.dropFirst()), entity)))
            case "update":
                let id = try objectID(args.first)
                try context.setValues(values(Array(args.dropFirst()), id.entity), for: id)
            case "delete":
                try context.delete(objectID(args.first))
            case "save":
                let result = try context.save()
                for temporary in pendingInserts {
                    if let id = result.permanentIDs[temporary] { StorePeer.say("inserted \(id.entity) \(id.primaryKey)") }
                }
                pendingInserts.removeAll()
                for change in result.changes {
                    StorePeer.say("saved \(change.operation.rawValue) \(change.entity) \(change.primaryKey) v\(change.version)")
                }
            case "read":
                let values = try context.values(of: objectID(args.first))
                StorePeer.say("values " + values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: " "))
            case "count":
                guard let entity = args.first else { throw UsageError(message: "count needs an entity") }
                StorePeer.say("count \(try context.fetch(FetchRequest(entity: entity)).count)")
            case "hold-write":
                try store.beginWrite()
                StorePeer.say("holding")
                usleep(UInt32(milliseconds(args.first)) * 1000)
                try store.endWrite()
            case "crash-in-save":
                store.beforeCommit = { _ in kill(getpid(), SIGKILL) }
            case "sleep":
                usleep(UInt32(milliseconds(args.first)) * 1000)
            case "merge-history":
                let consumer = args.first ?? "testpeer"
                do {
                    let result = try store.mergeHistory(into: context, consumer: consumer, filter: .allButOwn)
                    StorePeer.say("merged \(result.transactions.count) token \(result.tokenAfter.map(String.init) ?? "none")")
                } catch {
                    guard ErrorKind(error) == .expiredToken else { throw error }
                    StorePeer.say("expired-token")
                }
            case "purge":
                guard let policy = args.first.flatMap(HistoryPurgePolicy.init(argument:)) else {
                    throw UsageError(message: "purge needs none, consumed-by-all, own-token or older-than:SECONDS")
                }
                let deleted = try store.purgeHistory(policy, consumers: Array(args.dropFirst()))
                StorePeer.say("purged \(deleted)")
            default:
                throw UsageError(message: "unknown command \(command[0])")
            }
        }

        func milliseconds(_ text: String?) -> Int { text.flatMap(Int.init) ?? 0 }

        func objectID(_ text: String?) throws -> ObjectID {
            guard let text else { throw UsageError(message: "missing object (pk or Entity/pk)") }
            let parts = text.split(separator: "/")
            let entity = parts.count == 2 ? String(parts[0]) : "Note"
            guard let key = Int64(parts.last ?? "") else { throw UsageError(message: "bad object \(text)") }
            return try store.objectID(entity: entity, primaryKey: key)
        }

        func values(_ pairs: [String], _ entity: String) throws -> [String: Value] {
            let attributes = store.model.attributes(of: entity) ?? []
            var result: [String: Value] = [:]
            for pair in pairs {
                guard let eq = pair.firstIndex(of: "=") else { throw UsageError(message: "expected key=value: \(pair)") }
                let key = String(pair[..<eq])
                guard let type = attributes.first(where: { $0.name == key })?.type else {
                    throw UsageError(message: "\(entity) has no attribute \(key)")
                }
                result[key] = try Value.from(scalar: String(pair[pair.index(after: eq)...]), as: type)
            }
            return result
        }
    }
}
