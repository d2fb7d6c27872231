import Basics

/// Decoding `explore:`: for each perturbation, the processes it may hit.
extension ScenarioDecoder {
    func decodeExplore(_ node: YAMLNode) -> ExploreSpace? {
        guard let map = MappingReader(node, "the explore section, like explore: { suspend: [app], drop-notifications: [app] }", decoder)
        else { return nil }
        map.rejectUnknownKeys(ExploreSpace.keys, in: "explore")
        func processes(_ key: String) -> [String] {
            guard let node = map[key], let names = decoder.scalarList(node, key, allowingSingle: true) else { return [] }
            for (name, nameNode) in names where knowsProcesses && !processNames.contains(name) {
                decoder.error("explore names an unknown process '\(name)'" + Suggestion.hint(for: name, in: processNames),
                              at: nameNode)
            }
            return names.map(\.0)
        }
        var space = ExploreSpace(
            suspend: processes("suspend"), background: processes("background"), crash: processes("crash"),
            terminate: processes("terminate"), dropNotifications: processes("drop-notifications"),
            delayNotifications: processes("delay-notifications"))
        // How many of its own steps a process may take before a notification posted to it is handled.
        if let node = map["late-notifications"],
           let bound = decoder.int(node, "late-notifications (how many of its own steps a process may take before a notification reaches it)",
                                   in: 0...ExploreSpace.maximumLateNotifications) {
            space.lateNotifications = bound
        }
        return space
    }
}
