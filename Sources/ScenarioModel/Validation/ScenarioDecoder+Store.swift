import Basics
import Foundation
import SharedStore

/// Decoding `store:` (its model is `ModelDecoder`'s).
extension ScenarioDecoder {
    /// Decodes models and their versions, into this file's errors.
    var models: ModelDecoder { ModelDecoder(decoder: decoder) }

    func decodeStore(_ node: YAMLNode) -> StoreDescription? {
        guard let map = MappingReader(node, "the store", decoder) else { return nil }
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
            versions = models.decodeVersions(modelsNode)
            model = versions.last?.model
        } else if map["from"] != nil, map["model"] == nil {
            model = nil  // read off the file below
        } else {
            model = map.required("model", in: "the store", example: "model: { Note: { title: string } }")
                .flatMap(models.decodeModel)
        }
        self.modelVersions = versions
        var seed: StoreSeed?
        if let fromNode = map["from"] {
            (seed, model) = decodeSeed(fromNode, given: model, inferring: map["model"] == nil && map["models"] == nil)
        }
        self.model = model
        guard let group, let name, let model else { return nil }
        var store = StoreDescription(group: group, name: name, model: model, versions: versions)
        store.from = seed
        return store
    }

    /// Whether objects of `entity` may stand where `ancestor`'s are expected (it or a sub-entity of it).
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        entity == ancestor || model?.entity(entity, isKindOf: ancestor) == true
    }
}
