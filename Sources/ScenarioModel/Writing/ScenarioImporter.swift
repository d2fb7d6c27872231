import Basics
import Foundation
import SharedStore

/// `groupsim import`: a scenario skeleton from a store file (a device's), to replay the history it
/// recorded under each refresh strategy.
///
/// The skeleton starts from the store (`store: { from: }`, the model read off its schema) and declares one
/// process per writer the history names (by bundle id, else author, else process), its role guessed from
/// the bundle id and its author the one recorded. Its steps replay the recorded transactions in token order
/// as the writer's saves: an update sets the updated attributes to what the row holds now (history keeps
/// which properties changed, not their values); an insert or a delete is a comment, as the starting store
/// already holds its outcome. The app launches first and fetches every entity; at the end it counts each
/// entity and reads each replayed object. One variant per refresh strategy expects `pass`: the engineer
/// writes what each should show.
public enum ScenarioImporter {
    /// What `skeleton` could not turn into a scenario.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The skeleton for the store at `store`, to be written at `output` (the `from:` path is relative to its
    /// directory). At most `transactions` transactions (the newest) and `changesPerTransaction` changes of
    /// each become steps. `scratch` is where the store's copies go (removed before it returns).
    ///
    /// With `model` (a scenario's, or one an Xcode model gives), the skeleton declares it; without, the model
    /// is read off the schema, and a relationship whose destination the schema does not tell is kept as an
    /// `int` attribute (the key it holds) with a comment asking for the model, the skeleton then declaring
    /// the model it used.
    public static func skeleton(store: URL, output: URL, transactions limit: Int = 200, changesPerTransaction: Int = 20,
                                scratch: URL? = nil, model given: ModelDescription? = nil) throws(Failure) -> String {
        let inspection: StoreInspection
        let model: ModelDescription
        var leftOut: [String] = []
        let history: RecordedHistory
        do {
            inspection = try StoreInspector.inspect(store, scratch: scratch)
            if let given {
                model = given
            } else {
                (model, leftOut) = try inspection.inferredModelLeavingOutUnresolved()
            }
            if model.entities.count > Limits.entities {
                throw Failure(description: "it has \(model.entities.count) entities, and a scenario's model may have at most "
                    + "\(Limits.entities)")
            }
            history = try StoreInspector.recordedHistory(store, model: model, limit: limit, samples: 2, scratch: scratch)
        } catch let error as ModelInferenceError {
            throw Failure(description: "its model cannot be read off its schema: \(error.message)")
        } catch {
            throw Failure(description: "\(error)")
        }
        let writers = Writers(history.transactions)
        // Each entity's attribute names, looked up by name (a model may have thousands of entities).
        let entitiesByName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let attributeNames = entitiesByName.mapValues { Set($0.attributes.map(\.name)) }
        // The values a step can show: an entity's attributes, a string no longer than `longestValue` (a
        // store can hold megabytes in one; the skeleton says it left it out).
        func shown(_ values: [String: Value], of id: ObjectID, as objectName: String) -> [String: Value] {
            let attributes = attributeNames[id.entity] ?? []
            return values.filter { key, value in
                guard attributes.contains(key) else { return false }
                if case .string(let text) = value, text.utf8.count > longestValue {
                    steps.append("  # \(YAMLText.comment(objectName)).\(YAMLText.comment(key)) is left out: \(text.utf8.count) bytes")
                    return false
                }
                if case .string(let text) = value, !YAMLText.readsBack(text) {
                    steps.append("  # \(YAMLText.comment(objectName)).\(YAMLText.comment(key)) is left out: it starts with a byte-order "
                        + "mark, which YAML readers drop")
                    return false
                }
                return true
            }
        }
        var names: [ObjectID: String] = [:]
        var namedOfEntity: [String: Int] = [:]
        func name(_ id: ObjectID) -> String {
            if let known = names[id] { return known }
            let made = "\(id.entity.lowercased())-\(id.primaryKey)"
            names[id] = made
            namedOfEntity[id.entity, default: 0] += 1
            return made
        }
        var steps: [String] = []
        func step(_ process: String, _ action: String) { steps.append("  - \(YAMLText.word(process)): \(action)") }
        let app = writers.app
        step(app.name, "launch")
        for entity in model.entities { step(app.name, "{ fetch: \(YAMLText.word(entity.name)) }") }
        var running: Set<String> = [app.name]
        for transaction in history.transactions {
            let writer = writers.writer(of: transaction)
            let counts = [ChangeOperation.insert, .update, .delete].map { operation in
                transaction.changes.filter { $0.operation == operation }.count
            }
            steps.append("  # token \(transaction.token) at \(Value.formatDate(transaction.timestamp)) by \(YAMLText.comment(writer.label)): "
                + "\(counts[0]) inserted, \(counts[1]) updated, \(counts[2]) deleted")
            var wrote = false
            for change in transaction.changes.prefix(changesPerTransaction) {
                let row = YAMLText.comment("\(change.object.entity) \(change.object.primaryKey)")
                switch change.operation {
                case .insert: steps.append("  # inserted \(row) (the starting store holds it)")
                case .delete: steps.append("  # deleted \(row) (the starting store no longer holds it)")
                case .update:
                    guard let recorded = history.rows[change.object] else {
                        steps.append("  # updated \(row), whose row is gone now")
                        continue
                    }
                    let attributes = attributeNames[change.object.entity] ?? []
                    let updated = change.updatedProperties.filter(attributes.contains)
                    let values = shown(recorded, of: change.object, as: name(change.object))
                    var set = values.filter { updated.isEmpty || updated.contains($0.key) }
                    if set.isEmpty { set = values }
                    guard !set.isEmpty else { continue }
                    if !writer.role.isPerformed && running.insert(writer.name).inserted { step(writer.name, "launch") }
                    step(writer.name, "{ update: \(YAMLText.word(name(change.object))), set: \(YAMLText.values(set)) }")
                    wrote = true
                }
            }
            if transaction.changes.count > changesPerTransaction {
                steps.append("  # \(transaction.changes.count - changesPerTransaction) more changes left out")
            }
            if wrote { step(writer.name, "save") }
        }
        for writer in writers.all where writer.name != app.name && running.contains(writer.name) && !writer.role.isPerformed {
            step(writer.name, "exit")
        }
        // The replayed history changes nothing the starting store does not already hold (it is the store
        // those transactions left), so on its own it shows no two-process bug: an extension (one the history
        // names, else one the skeleton adds) edits an object the app has shown, and the app reads it again,
        // which each refresh strategy decides.
        var edited: (id: ObjectID, values: [String: Value])?
        let editor = writers.all.first { $0.name != app.name && $0.role.traits.launch == .steps }
        if let sample = sampleToEdit(history.samples, entities: entitiesByName) {
            let editorName = editor?.name ?? extensionName(writers)
            if names[sample.id] == nil { _ = name(sample.id) }
            steps.append("  # an edit the skeleton adds, which the history did not record: \(YAMLText.comment(editorName)) changes an object the app has shown")
            step(editorName, "launch")
            step(editorName, "{ update: \(YAMLText.word(name(sample.id))), set: \(YAMLText.values(sample.change)) }")
            step(editorName, "save")
            step(editorName, "exit")
            edited = (sample.id, sample.change)
        }
        for (id, _) in history.samples.sorted(by: { ($0.key.entity, $0.key.primaryKey) < ($1.key.entity, $1.key.primaryKey) }) {
            let named = namedOfEntity[id.entity] ?? 0
            if named == 0 || names.count < 12 && named < 2 { _ = name(id) }
        }
        // A count of an entity counts its sub-entities' objects too, as a fetch of it returns them: each
        // entity's objects are added to it and its ancestors (at most the language's depth of them).
        let parents = model.entityParents
        var kindCounts: [String: Int] = [:]
        for entity in inspection.entities {
            for kind in ModelDescription.ancestry(of: entity.name, parent: { parents[$0] }) {
                kindCounts[kind, default: 0] &+= entity.count
            }
        }
        for entity in inspection.entities {
            step(app.name, "{ count: \(YAMLText.word(entity.name)), expect: \(kindCounts[entity.name] ?? 0) }")
        }
        for (id, objectName) in names.sorted(by: { $0.value < $1.value }) {
            guard let recorded = history.rows[id] ?? history.samples[id] else { continue }
            var values = shown(recorded, of: id, as: objectName).filter { $0.value != .null }
            if let edited, edited.id == id {
                values.merge(edited.values) { $1 }
                step(app.name, "{ read: \(YAMLText.word(objectName)), expect: \(YAMLText.values(values)), within: 1s }   # the extension's edit")
            } else if !values.isEmpty {
                step(app.name, "{ read: \(YAMLText.word(objectName)), expect: \(YAMLText.values(values)) }")
            }
        }
        var processes = writers.all
        if edited != nil, editor == nil {
            processes.append(Writer(name: extensionName(writers), role: .share, bundle: nil, author: nil,
                                    label: "an extension the skeleton adds: it edits an object the app has shown"))
        }
        let text = file(store: store, output: output, inspection: inspection, model: model, history: history,
                        writers: processes, objects: names, steps: steps, declaredModel: given != nil || !leftOut.isEmpty ? model : nil,
                        leftOut: leftOut, given: given != nil)
        if text.utf8.count > Limits.fileBytes {
            throw Failure(description: "its skeleton would be \(text.utf8.count) bytes, more than the \(Limits.fileBytes) a scenario may have; "
                + "import fewer transactions (--transactions)")
        }
        do {
            _ = try ScenarioLoader.parse(yaml: text, file: output.path)
        } catch {
            throw Failure(description: "the skeleton does not validate, which is a bug in groupsim import: \(error)")
        }
        return text
    }

    /// The longest string (in UTF-8 bytes) a skeleton writes into a step; a longer one is left out.
    static let longestValue = 200

    /// The name of the extension the skeleton adds when the history names no writer but the app.
    private static func extensionName(_ writers: Writers) -> String {
        writers.all.contains { $0.name == "share" } ? "share-extension" : "share"
    }

    /// The first sampled object with an attribute the skeleton can change, and the change: a string gets
    /// " (edited)", a number one more, a Boolean its opposite.
    private static func sampleToEdit(_ samples: [ObjectID: [String: Value]], entities: [String: EntityDescription])
        -> (id: ObjectID, change: [String: Value])? {
        for (id, values) in samples.sorted(by: { ($0.key.entity, $0.key.primaryKey) < ($1.key.entity, $1.key.primaryKey) }) {
            for attribute in entities[id.entity]?.attributes ?? [] {
                let current = values[attribute.name] ?? .null
                let changed: Value? = switch (attribute.type, current) {
                case (.string, .string(let text)) where text.utf8.count < longestValue - 8 && YAMLText.readsBack(text): .string(text + " (edited)")
                case (.string, .null): .string("edited")
                case (.int, .int(let n)): .int(n == .max ? n - 1 : n + 1)
                case (.double, .double(let d)): .double(d + 1)
                case (.bool, .bool(let b)): .bool(!b)
                default: nil
                }
                if let changed { return (id, [attribute.name: changed]) }
            }
        }
        return nil
    }

    /// `text` as a kebab-case word: lowercase letters and digits in words joined by single `-`.
    static func kebab(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) { result.append(character) }
            else if !result.isEmpty && !result.hasSuffix("-") { result.append("-") }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "store" : String(result.prefix(80))
    }

    private static func file(store: URL, output: URL, inspection: StoreInspection, model: ModelDescription,
                             history: RecordedHistory, writers: [Writer], objects: [ObjectID: String], steps: [String],
                             declaredModel: ModelDescription?, leftOut: [String], given: Bool) -> String {
        let stem = store.deletingPathExtension().lastPathComponent
        // The store's file name as the scenario names it: letters, digits, '-', '_' and '.', not hidden.
        var name = String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" }.prefix(100))
        while name.hasPrefix(".") || name.hasPrefix("-") { name.removeFirst() }
        if name.isEmpty { name = "Store" }
        let app = writers.first { $0.role == .host }
        // The app's bundle id names the group when it makes a name the language takes (at most 100 bytes, not
        // starting with '.'); any other is someone else's text, and the group is `group.imported`.
        let group = "group." + (app?.bundle.flatMap { bundle in
            bundle.utf8.count <= 94 && !bundle.hasPrefix(".")
                && bundle.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } ? bundle : nil
        } ?? "imported")
        var lines = [
            "# Imported by groupsim import from \(YAMLText.comment(store.path)): \(history.transactions.count) history transactions"
                + (history.omitted > 0 ? " (\(history.omitted) older ones left out)" : "") + ".",
            given ? "# The model is the one given with --model:" : "# The model is read off the store's schema:",
        ]
        for entity in model.entities {
            let declared = model.declaredProperties(of: entity)
            let properties = declared.attributes.map { "\($0.name) \($0.type)" }
                + declared.relationships.map { "\($0.name) -> \($0.isToMany ? "[\($0.destination)]" : $0.destination)" }
            let parent = entity.parent.map { " (a sub-entity of \($0), with its properties)" } ?? ""
            lines.append(YAMLText.comment("#   \(entity.name)\(parent): \(properties.joined(separator: ", "))"))
        }
        for relationship in leftOut {
            lines.append(YAMLText.comment("# \(relationship): the schema does not tell where it points, so it is an int here, the key of "
                + "the row it holds. Where does it point? Give the model with groupsim import --model FILE, or write it under model:."))
        }
        lines += [
            "# Each variant runs the recorded history with the app on one refresh strategy; write what each",
            "# should show under expect:.",
            "name: \(YAMLText.word("imported-" + kebab(stem)))",
            "summary: \(YAMLText.quoted("The history recorded in \(store.lastPathComponent), replayed from the store it left."))",
            "store:",
            "  group: \(YAMLText.word(group))",
            "  name: \(YAMLText.word(name))",
            "  from:",
            "    file: \(YAMLText.quoted(relativePath(of: store, from: output.deletingLastPathComponent())))",
        ]
        if !objects.isEmpty {
            lines.append("    objects:")
            for (id, objectName) in objects.sorted(by: { $0.value < $1.value }) {
                lines.append("      \(YAMLText.word(objectName)): \(YAMLText.quoted("\(id.entity) \(id.primaryKey)"))")
            }
        }
        if let declaredModel { lines += YAMLText.model(declaredModel, indent: "  ") }
        lines.append("processes:")
        for writer in writers {
            var settings = [("role", writer.role.rawValue)]
            if writer.role.traits.storage != .group { settings.append(("storage", "group")) }
            // An author a YAML reader would change is left as none (the comment shows it, escaped).
            settings.append(("author", writer.author.flatMap { YAMLText.readsBack($0) ? YAMLText.word($0) : nil } ?? "none"))
            lines.append("  \(YAMLText.word(writer.name)): \(YAMLText.flow(settings))   # \(YAMLText.comment(writer.label))")
        }
        lines.append("steps:")
        lines += steps
        let appName = app?.name ?? "app"
        lines += [
            "variants:",
            "  refresh-none: { expect: pass }",
            "  staleness-zero: { \(YAMLText.word(appName)): { refresh: staleness, staleness: 0 }, expect: pass }",
            "  history: { \(YAMLText.word(appName)): { refresh: history }, expect: pass }",
            "  refetch: { \(YAMLText.word(appName)): { refresh: refetch, refetch: reset }, expect: pass }",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `target`'s path relative to `directory` (climbing with `..` where needed), so the scenario and the
    /// store move together; absolute when they share nothing but the root.
    static func relativePath(of target: URL, from directory: URL) -> String {
        let path = target.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let base = directory.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(path.count, base.count), path[common] == base[common] { common += 1 }
        guard common > 1 else { return target.standardizedFileURL.path }
        let climb = Array(repeating: "..", count: base.count - common)
        return (climb + path[common...]).joined(separator: "/")
    }
}

/// A writer the history names, as a process of the skeleton.
struct Writer {
    var name: String
    var role: ProcessRole
    var bundle: String?
    var author: String?
    var label: String
}

/// The processes of a skeleton: one per writer (bundle id, else author, else process), in order of
/// first appearance; the one whose bundle id is the shortest, or the first, is the app (`host`).
struct Writers {
    private(set) var all: [Writer] = []
    private var byKey: [String: Int] = [:]

    init(_ transactions: [HistoryTransaction]) {
        var keys: [(key: String, transaction: HistoryTransaction)] = []
        for transaction in transactions {
            let key = Self.key(of: transaction)
            if !keys.contains(where: { $0.key == key }) { keys.append((key, transaction)) }
        }
        let appKey = keys.filter { $0.transaction.bundleIdentifier != nil }.min { $0.key.count < $1.key.count }?.key ?? keys.first?.key
        var used: Set<String> = []
        func unique(_ base: String) -> String {
            var cleaned = String(base.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
            while cleaned.first.map({ !$0.isLetter }) ?? true { cleaned = cleaned.isEmpty ? "process" : String(cleaned.dropFirst()) }
            if ScenarioDecoder.controlKeywords.contains(cleaned) || ScenarioDecoder.variantKeys.contains(cleaned)
                || ScenarioDecoder.harnessNames.contains(cleaned) { cleaned += "-process" }
            var name = String(cleaned.prefix(60))
            var n = 2
            while !used.insert(name).inserted { name = "\(cleaned.prefix(60))-\(n)"; n += 1 }
            return name
        }
        if appKey == nil { all.append(Writer(name: unique("app"), role: .host, bundle: nil, author: nil, label: "the app")) }
        // A scenario holds at most `Limits.processes` processes, one of them perhaps the extension the skeleton
        // adds: the writers past what fits, in the order the history first names them, are one process.
        let room = Limits.processes - 2 - all.count
        var merged: [String] = []
        if keys.count > room {
            merged = keys[(room - 1)...].map(\.key).filter { $0 != appKey }
            keys = Array(keys[..<(room - 1)]) + keys[(room - 1)...].filter { $0.key == appKey }
        }
        for (key, transaction) in keys {
            let isApp = key == appKey
            let bundle = transaction.bundleIdentifier
            let role = isApp ? ProcessRole.host : Self.role(guessedFrom: bundle ?? key)
            let name = unique(isApp ? "app" : (bundle?.split(separator: ".").last.map(String.init) ?? key))
            let label = [bundle.map { "bundle \($0)" }, transaction.author.map { "author \($0)" },
                         transaction.processName.map { "process \($0)" }].compactMap { $0 }.joined(separator: ", ")
            byKey[key] = all.count
            all.append(Writer(name: name, role: role, bundle: bundle, author: transaction.author,
                              label: label.isEmpty ? "no bundle, author or process recorded" : label))
        }
        if !merged.isEmpty {
            for key in merged { byKey[key] = all.count }
            all.append(Writer(name: unique("other-writers"), role: .action, bundle: nil, author: nil,
                              label: "\(merged.count) more writers the history names, one process here (a scenario holds at most "
                                  + "\(Limits.processes) processes)"))
        }
    }

    var app: Writer { all.first { $0.role == .host } ?? all[0] }

    func writer(of transaction: HistoryTransaction) -> Writer { all[byKey[Self.key(of: transaction)]!] }

    private static func key(of transaction: HistoryTransaction) -> String {
        transaction.bundleIdentifier ?? transaction.author ?? transaction.processName ?? "unknown"
    }

    /// The role a bundle id's last component suggests by the roles' `bundleHints` (`.widget`, `.share`,
    /// `.intents`, a notification service, a watch app), the hint nearest its end deciding, as the kind
    /// ends a name (`WatchWidget` is a widget); any other extension is an action extension.
    static func role(guessedFrom bundle: String) -> ProcessRole {
        let last = bundle.split(separator: ".").last.map { $0.lowercased() } ?? bundle.lowercased()
        var best: (role: ProcessRole, end: String.Index)?
        for role in ProcessRole.allCases {
            for hint in role.traits.bundleHints {
                guard let found = last.range(of: hint, options: .backwards) else { continue }
                if best.map({ found.upperBound > $0.end }) ?? true { best = (role, found.upperBound) }
            }
        }
        return best?.role ?? .action
    }
}
