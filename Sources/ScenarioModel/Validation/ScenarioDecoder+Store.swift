import Basics

/// Decoding `store:` (`StoreDecoder`; its model is `ModelDecoder`'s).
extension ScenarioDecoder {
    func decodeStore(_ node: YAMLNode) -> StoreDescription? {
        var section = StoreDecoder(decoder: decoder)
        let (store, model) = section.decode(node)
        modelVersions = section.modelVersions
        self.model = model
        for (id, entity, at) in section.rowNames {
            objects[id] = .some(entity)
            objectOrigins[id] = at
        }
        return store
    }

    /// Whether objects of `entity` may stand where `ancestor`'s are expected (it or a sub-entity of it).
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        entity == ancestor || model?.entity(entity, isKindOf: ancestor) == true
    }
}
