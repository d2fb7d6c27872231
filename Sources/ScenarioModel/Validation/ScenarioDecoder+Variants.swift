import Basics

/// Decoding `variants:`, `expect:` and `latency:`.
extension ScenarioDecoder {
    func decodeVariants(_ node: YAMLNode) -> [Variant] {
        guard let map = MappingReader(node, "the variants (each name mapped to its overrides)", decoder) else { return [] }
        if map.pairs.isEmpty {
            decoder.error("variants is empty; add one, like stale: { app: { staleness: -1 }, expect: [stale-read] }, "
                + "or remove the key.", at: node)
        }
        return map.pairs.compactMap { pair in
            guard let name = pair.key.scalar else { return nil }
            return decodeVariant(name, pair.value, at: pair.key)
        }
    }

    private func decodeVariant(_ name: String, _ node: YAMLNode, at keyNode: YAMLNode) -> Variant? {
        var valid = true
        // Kebab-case is the house style (`fresh-cache`), but a name is a report folder and a `--variant`
        // argument, so any of letters, digits, '-' and '_' will do (`fresh_cache`, `freshCache`).
        if name.isEmpty || name.first == "-" || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            let suggestion = ScenarioName.kebabCased(name)
            decoder.error("the variant name '\(name)' may hold only letters, digits, '-' and '_' (not first)"
                + (ScenarioName.isKebabCase(suggestion) ? "; write it like \(suggestion)." : "; rename it, like fresh-cache."), at: keyNode)
            valid = false
        }
        var variant = Variant(name: name, location: decoder.location(of: keyNode))
        if node.isNull { return valid ? variant : nil }
        guard let map = MappingReader(node, "variant '\(name)'", decoder) else { return nil }
        let what = "variant '\(name)'"
        for pair in map.pairs {
            guard let key = pair.key.scalar else { continue }
            switch key {
            case "expect":
                variant.expectation = decodeExpectation(pair.value)
                valid = valid && variant.expectation != nil
            case "latency":
                variant.latencyBudget = decoder.latencyBudget(pair.value)
                valid = valid && variant.latencyBudget != nil
            case "stale-tolerance":
                variant.staleTolerance = decoder.duration(pair.value, "stale-tolerance")
                valid = valid && variant.staleTolerance != nil
            case "limits" where !processNames.contains("limits"):
                variant.growthLimits = decoder.growthLimits(pair.value)
                valid = valid && variant.growthLimits != nil
            default:
                guard !knowsProcesses || processNames.contains(key) else {
                    decoder.error("unknown process or key '\(key)' in \(what)" + Suggestion.hint(
                        for: key, in: processNames + ScenarioDecoder.variantKeys,
                        otherwise: "a variant overrides the settings of declared processes "
                            + "(\(Suggestion.list(processNames))) and may set expect, latency, stale-tolerance and limits."),
                        at: pair.key)
                    valid = false
                    continue
                }
                guard let settingsMap = MappingReader(pair.value, "the settings \(what) overrides for '\(key)'", decoder)
                else { valid = false; continue }
                let settings = decodeSettings(settingsMap, of: key, allowingRole: false)
                if let declared = processes.first(where: { $0.name == key })?.settings {
                    settingsDecoder.refuseOtherRolesSettings(settingsMap, role: declared.role, process: key)
                    settingsDecoder.refuseOtherFrameworksSettings(settingsMap, framework: declared.framework, process: key)
                }
                variant.overrides.append(ProcessOverride(process: key, settings: settings))
            }
        }
        return valid ? variant : nil
    }

    /// The run's expectation (`NodeDecoder.expectation`): a count per process names a declared process,
    /// and a workload's counts may not be exact.
    func decodeExpectation(_ node: YAMLNode) -> Expectation? {
        decoder.expectation(node, hasWorkload: actions.hasWorkload) { processReference($0, "a process name") }
    }
}
