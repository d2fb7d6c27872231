import Basics
import Foundation
import SharedStore

/// Decodes `store:`: its group and name, its model or model versions (`ModelDecoder`), and the store file
/// runs start from (`from:`), whose schema gives the model when none is written, with names for its rows.
struct StoreDecoder {
    /// The error sink and typed reads.
    let decoder: NodeDecoder
    /// `store.models`, oldest first; empty with `store.model`.
    private(set) var modelVersions: [ModelVersion] = []
    /// The names `from: { objects: }` gives the store's rows (`n1: Note 12`), in file order, with where each is:
    /// every later step knows them, as if inserted before the first.
    private(set) var rowNames: [(id: String, entity: String, node: YAMLNode)] = []

    init(decoder: NodeDecoder) {
        self.decoder = decoder
    }

    /// Decodes `store:`: the store, and its model, read off its file (`from:`) when no model is given; nil
    /// with the errors found when it is broken (the model is then what could be read, if any).
    mutating func decode(_ node: YAMLNode) -> (store: StoreDescription?, model: ModelDescription?) {
        guard let map = MappingReader(node, "the store", decoder) else { return (nil, nil) }
        map.rejectUnknownKeys(["group", "name", "model", "models", "from"], in: "the store")
        let group = map.required("group", in: "the store", example: "group: group.example.notes")
            .flatMap { decoder.name($0, "an app-group identifier like group.example.notes") }
        let name = map.required("name", in: "the store", example: "name: Notes")
            .flatMap { decoder.name($0, "the store's file name, like Notes") }
        var versions: [ModelVersion] = []
        var model: ModelDescription?
        if let modelsNode = map["models"] {
            if let single = map["model"] {
                decoder.error("the store has both model: and models:; give one model under model:, or every version "
                    + "under models:.", at: single)
            }
            versions = ModelDecoder(decoder: decoder).decodeVersions(modelsNode)
            model = versions.last?.model
        } else if map["from"] != nil, map["model"] == nil {
            model = nil  // read off the file below
        } else {
            model = map.required("model", in: "the store", example: "model: { Note: { title: string } }")
                .flatMap(ModelDecoder(decoder: decoder).decodeModel)
        }
        modelVersions = versions
        var seed: StoreSeed?
        if let fromNode = map["from"] {
            (seed, model) = decodeSeed(fromNode, given: model, versions: versions, inferring: map["model"] == nil && map["models"] == nil)
        }
        guard let group, let name, let model else { return (nil, model) }
        var store = StoreDescription(group: group, name: name, model: model, versions: versions)
        store.from = seed
        return (store, model)
    }

    /// The file a `from:` node names (`from: Notes.sqlite` or `from: { file: Notes.sqlite, ... }`),
    /// resolved against the scenario's directory, with the node that names it.
    private func seedFile(_ node: YAMLNode) -> (url: URL, node: YAMLNode)? {
        var fileNode = node
        if node.scalar == nil || node.isNull {
            guard let map = MappingReader(node, "from (a store file, or { file: Notes.sqlite, objects: { n1: Note 12 } })", decoder),
                  let file = map.required("file", in: "from", example: "file: device/Notes.sqlite")
            else { return nil }
            map.rejectUnknownKeys(["file", "objects"], in: "from")
            fileNode = file
        }
        guard let path = decoder.string(fileNode, "the path of a .sqlite store file") else { return nil }
        guard !path.isEmpty else {
            decoder.error("from: needs the path of a .sqlite store file, like device/Notes.sqlite; it is empty.", at: fileNode)
            return nil
        }
        let directory = URL(fileURLWithPath: decoder.file).deletingLastPathComponent()
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        return (url.standardizedFileURL, fileNode)
    }

    /// `from:` with its rows' names (`id: Entity pk`), read once from a copy of the file (never written):
    /// the model its schema shows when `inferring`, else the `given` one (or a version) checked against it,
    /// and each named row looked for. The names are known to every later step, as if inserted before the
    /// first, even when the file is missing or unreadable (so one bad file is one error).
    /// - Returns: the seed, and the store's model (the one given, or the one read off the file); the names are `rowNames`.
    private mutating func decodeSeed(_ node: YAMLNode, given model: ModelDescription?, versions modelVersions: [ModelVersion],
                                     inferring: Bool) -> (StoreSeed?, ModelDescription?) {
        guard !node.isNull else {
            decoder.error("from: names the store file runs start from, like from: device/Notes.sqlite.", at: node)
            return (nil, model)
        }
        guard let (url, fileNode) = seedFile(node) else { return (nil, model) }
        var objects: [String: StoreRow] = [:]
        var nodes: [StoreRow: YAMLNode] = [:]
        var namedAs: [StoreRow: String] = [:]
        if let objectsNode = node.pairs?.first(where: { $0.key.scalar == "objects" })?.value,
           let map = MappingReader(objectsNode, "objects (names for the store's rows, like { n1: Note 12 })", decoder) {
            for pair in map.pairs {
                guard let id = decoder.name(pair.key, "an object id like n1"),
                      let text = decoder.string(pair.value, "a row like Note 12 (its entity and primary key)") else { continue }
                let parts = text.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2, let key = Int64(parts[1]), key > 0 else {
                    decoder.error("expected a row like Note 12 (an entity and a primary key above 0), but found '\(text)'.", at: pair.value)
                    continue
                }
                let row = StoreRow(entity: String(parts[0]), primaryKey: key)
                rowNames.append((id, row.entity, pair.key))
                if let other = namedAs[row] {
                    decoder.error("\(row) is named twice, as \(other) and as \(id).", at: pair.value)
                    continue
                }
                objects[id] = row
                namedAs[row] = id
                nodes[row] = pair.value
            }
        }
        let seed = StoreSeed(path: url.path, objects: objects)
        guard FileManager.default.fileExists(atPath: url.path) else {
            decoder.error("there is no store file at \(url.path); from: is read relative to this scenario's directory.", at: fileNode)
            return (seed, model)
        }
        // The file's model must be the one given, or one of the versions (the one the file is of).
        let candidates = inferring ? nil : modelVersions.isEmpty ? model.map { [$0] } : modelVersions.reversed().map(\.model)
        let examination: StoreExamination
        do {
            examination = try StoreInspector.examine(url, findingRows: Array(nodes.keys), fitting: candidates, inferring: inferring)
        } catch {
            decoder.error("the store \(url.path) cannot be read: \(error).", at: fileNode)
            return (seed, model)
        }
        var storeModel = model
        if inferring {
            do {
                storeModel = try examination.inspection.inferredModel()
                if let count = storeModel?.entities.count, count > Limits.entities {
                    decoder.error("the schema of \(url.path) shows \(count) entities; a model may have at most \(Limits.entities).",
                                  at: fileNode)
                    return (seed, nil)
                }
                if case .failure(let mismatch) = examination.fit {
                    decoder.error("the model read off the schema of \(url.path) does not open it: \(mismatch.reason).", at: fileNode)
                    storeModel = nil
                }
            } catch {
                decoder.error("the model of \(url.path) cannot be read off its schema: \(error.message).", at: fileNode)
            }
        } else if case .failure(let mismatch) = examination.fit {
            let which = modelVersions.isEmpty ? "model given" : "model of any version"
            decoder.error("the store at \(url.path) does not hold the \(which): \(mismatch.reason).", at: fileNode)
        }
        var reported: Set<StoreRow> = []
        if let storeModel {
            let entityNames = Set(storeModel.entities.map(\.name))
            for (row, at) in nodes where !entityNames.contains(row.entity) {
                decoder.error("the model has no entity '\(row.entity)'" + Suggestion.hint(for: row.entity, in: storeModel.entities.map(\.name)),
                              at: at)
                reported.insert(row)
            }
        }
        for row in examination.inspection.missingRows ?? [] where !reported.contains(row) {
            decoder.error("the store at \(url.path) has no \(row) (no row of \(row.entity) with Z_PK \(row.primaryKey)).",
                          at: nodes[row] ?? fileNode)
        }
        return (seed, storeModel)
    }
}
