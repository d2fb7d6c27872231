import Basics

/// Decoding `store:` (`StoreDecoder`; its model is `ModelDecoder`'s).
extension ScenarioDecoder {
    func decodeStore(_ node: YAMLNode) -> StoreDescription? {
        var section = StoreDecoder(decoder: decoder)
        let (store, model) = section.decode(node)
        modelVersions = section.modelVersions
        self.model = model
        for (id, entity, at) in section.rowNames { actions.register(id, entity: entity, at: at) }
        return store
    }
}
