import Basics
import Foundation
import SharedStore

/// `store: { from: }`: the store file runs start from, the model its schema shows, and names for its rows.
extension ScenarioDecoder {
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
            if !reportedEmptySeedFile {
                decoder.error("from: needs the path of a .sqlite store file, like device/Notes.sqlite; it is empty.", at: fileNode)
                reportedEmptySeedFile = true
            }
            return nil
        }
        let directory = URL(fileURLWithPath: decoder.file).deletingLastPathComponent()
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
        return (url.standardizedFileURL, fileNode)
    }

    /// Reads the store at `from:` (a copy: the file is never written) and the model its schema shows.
    func inferredModel(_ node: YAMLNode) -> ModelDescription? {
        guard let (url, fileNode) = seedFile(node) else { return nil }
        do {
            let inspection = try StoreInspector.inspect(url)
            return try inspection.inferredModel()
        } catch let error as ModelInferenceError {
            decoder.error("the model of \(url.path) cannot be read off its schema: \(error.message).", at: fileNode)
        } catch {
            decoder.error("the store \(url.path) cannot be read: \(error).", at: fileNode)
        }
        return nil
    }

    /// `from:` with its rows' names: each `id: Entity pk` of an entity of the model, for a row the store
    /// holds; the names are known to every later step, as if inserted before the first, even when the file
    /// is missing (so one missing file is one error). A model given (not `inferred` from the file) must be
    /// the file's.
    func decodeSeed(_ node: YAMLNode, model: ModelDescription?, inferred: Bool) -> StoreSeed? {
        guard !node.isNull else {
            decoder.error("from: names the store file runs start from, like from: device/Notes.sqlite.", at: node)
            return nil
        }
        guard let (url, fileNode) = seedFile(node) else { return nil }
        var objects: [String: StoreRow] = [:]
        var nodes: [StoreRow: YAMLNode] = [:]
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
                let entity = String(parts[0])
                self.objects[id] = .some(entity)
                objectOrigins[id] = pair.key
                if let model, model.entity(named: entity) == nil {
                    decoder.error("the model has no entity '\(entity)'" + Suggestion.hint(for: entity, in: model.entities.map(\.name)),
                                  at: pair.value)
                    continue
                }
                let row = StoreRow(entity: entity, primaryKey: key)
                if let other = objects.first(where: { $0.value == row })?.key {
                    decoder.error("\(row) is named twice, as \(other) and as \(id).", at: pair.value)
                    continue
                }
                objects[id] = row
                nodes[row] = pair.value
            }
        }
        let seed = StoreSeed(path: url.path, objects: objects)
        guard FileManager.default.fileExists(atPath: url.path) else {
            // Without a model, reading it already said so.
            if !inferred {
                decoder.error("there is no store file at \(url.path); from: is read relative to this scenario's directory.", at: fileNode)
            }
            return seed
        }
        guard let model else { return seed }
        // The file's model must be the one given (or read off it), or one of the versions (the one the file is of).
        let candidates = modelVersions.isEmpty ? [model] : modelVersions.reversed().map(\.model)
        do {
            if case .failure(let mismatch) = try StoreInspector.fitting(url, models: candidates) {
                let which = inferred ? "model read off it" : modelVersions.isEmpty ? "model given" : "model of any version"
                decoder.error("the store at \(url.path) does not hold the \(which): \(mismatch.reason).", at: fileNode)
            }
        } catch {
            decoder.error("the store \(url.path) cannot be read: \(error).", at: fileNode)
            return seed
        }
        if !nodes.isEmpty {
            do {
                let inspection = try StoreInspector.inspect(url, findingRows: Array(nodes.keys))
                for row in inspection.missingRows ?? [] {
                    decoder.error("the store at \(url.path) has no \(row) (no row of \(row.entity) with Z_PK \(row.primaryKey)).",
                                  at: nodes[row] ?? fileNode)
                }
            } catch {
                decoder.error("the store \(url.path) cannot be read: \(error).", at: fileNode)
            }
        }
        return seed
    }
}
