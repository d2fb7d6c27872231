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
            let suggestion = ScenarioDecoder.kebabCased(name)
            decoder.error("the variant name '\(name)' may hold only letters, digits, '-' and '_' (not first)"
                + (ScenarioDecoder.isKebabCase(suggestion) ? "; write it like \(suggestion)." : "; rename it, like fresh-cache."), at: keyNode)
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
                variant.latencyBudget = decodeLatencyBudget(pair.value)
                valid = valid && variant.latencyBudget != nil
            case "stale-tolerance":
                variant.staleTolerance = decoder.duration(pair.value, "stale-tolerance")
                valid = valid && variant.staleTolerance != nil
            case "limits" where !processNames.contains("limits"):
                variant.growthLimits = decodeGrowthLimits(pair.value)
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
                    refuseOtherRolesSettings(settingsMap, role: declared.role, process: key)
                    refuseOtherFrameworksSettings(settingsMap, framework: declared.framework, process: key)
                }
                variant.overrides.append(ProcessOverride(process: key, settings: settings))
            }
        }
        return valid ? variant : nil
    }

    /// `pass`, a list of anomaly names, one anomaly name, or counts (`{ stale-read: 1, busy: 0 }`).
    func decodeExpectation(_ node: YAMLNode) -> Expectation? {
        if let word = node.scalar, !node.isNull {
            if word == "pass" { return .pass }
            return decoder.keyword(node, AnomalyKind.self, "anomaly").map { .anomalies([$0]) }
        }
        if node.pairs != nil { return decodeCounts(node) }
        guard let items = node.items else {
            decoder.error("expected expect: pass, a list of anomalies like [stale-read], or counts like "
                + "{ stale-read: 1, busy: 0 }, but found \(node.shortDescription).", at: node)
            return nil
        }
        guard !items.isEmpty else {
            decoder.error("an empty expect list would match any run; write expect: pass to expect no anomaly.", at: node)
            return nil
        }
        var names: [AnomalyKind] = []
        var valid = true
        for item in items {
            if item.scalar == "pass" {
                decoder.error("pass means no anomaly, so it cannot be listed with anomalies; write expect: pass "
                    + "on its own, or list only anomalies.", at: item)
                valid = false
            } else if let name = decoder.keyword(item, AnomalyKind.self, "anomaly") {
                if !names.contains(name) { names.append(name) }
            } else {
                valid = false
            }
        }
        return valid ? .anomalies(names) : nil
    }

    /// `{ stale-read: 1, busy: 0, missed-insert: 1+ }`: exactly n of a kind (0 forbids it), or n or more.
    func decodeCounts(_ node: YAMLNode) -> Expectation? {
        guard let map = MappingReader(node, "anomaly counts like { stale-read: 1, busy: 0 }", decoder) else { return nil }
        guard !map.pairs.isEmpty else {
            decoder.error("empty counts would match any run; name a kind and its count, like { stale-read: 1 }, "
                + "or write expect: pass.", at: node)
            return nil
        }
        var counts: [AnomalyCount] = []
        var valid = true
        for pair in map.pairs {
            guard let kind = decoder.keyword(pair.key, AnomalyKind.self, "anomaly") else {
                valid = false
                continue
            }
            // A kind named twice is a duplicate key, which the YAML layer already reports. Its value is a
            // count, or a mapping of processes to counts (`busy: { share: 1, app: 0 }`).
            var entries: [(YAMLNode, String?)] = [(pair.value, nil)]
            if pair.value.pairs != nil {
                guard let perProcess = MappingReader(pair.value, "counts per process like { share: 1, app: 0 }", decoder),
                      !perProcess.pairs.isEmpty else {
                    decoder.error("name a process and its count, like \(kind.rawValue): { share: 1 }.", at: pair.value)
                    valid = false
                    continue
                }
                entries = perProcess.pairs.map { ($0.value, processReference($0.key, "a process name")) }
                if entries.contains(where: { $0.1 == nil }) {
                    valid = false
                    continue
                }
            }
            for (value, process) in entries {
                guard let bound = value.scalar, !value.isNull, let count = AnomalyCount(kind: kind, bound: bound, process: process) else {
                    decoder.error("the count of \(kind.rawValue)\(process.map { " in \($0)" } ?? "") must be a whole number from 0 to "
                        + "1000000 (exactly that many; 0 forbids it) or one followed by + (that many or more), like 1+, "
                        + (process == nil ? "or counts per process like { share: 1, app: 0 }, " : "")
                        + "but found \(value.shortDescription).", at: value)
                    valid = false
                    continue
                }
                // How many anomalies a workload's interleaving makes depends on how fast the machine runs (a
                // loaded one interleaves more): an exact number of them would flake.
                if hasWorkload, count.atLeast > 0, count.atMost != nil {
                    decoder.error("a workload's \(kind.rawValue) count depends on how fast the machine runs, so an exact \(count.atLeast) "
                        + "would pass on one machine and fail on another; write \(count.atLeast)+ (at least that many), or 0 to "
                        + "forbid it.", at: value)
                    valid = false
                    continue
                }
                counts.append(count)
            }
        }
        return valid ? .counts(counts) : nil
    }

    /// `{ history-transactions: 1000, history-changes: 10000, wal: 4MB, store: 50MB }` (any of them).
    func decodeGrowthLimits(_ node: YAMLNode) -> GrowthLimits? {
        guard let map = MappingReader(node, "limits like { history-transactions: 1000, wal: 4MB }", decoder) else { return nil }
        map.rejectUnknownKeys(GrowthLimits.keys, in: "limits")
        if map.pairs.isEmpty {
            decoder.error("limits sets no limit; add one, like { history-transactions: 1000 } or { wal: 4MB }.", at: node)
            return nil
        }
        var valid = true
        func count(_ key: String) -> Int64? {
            guard let node = map[key] else { return nil }
            guard let value = decoder.int(node, "the \(key) limit", in: 0...Limits.objects * 100) else { valid = false; return nil }
            return Int64(value)
        }
        func size(_ key: String) -> Int64? {
            guard let node = map[key] else { return nil }
            guard let text = node.scalar, !node.isNull, let bytes = ByteSize.parse(text) else {
                decoder.error("expected a size like 4MB, 512KB or 1GB (at most 1024GB) for the \(key) limit, but found "
                    + "\(node.shortDescription).", at: node)
                valid = false
                return nil
            }
            return bytes
        }
        let limits = GrowthLimits(historyTransactions: count("history-transactions"), historyChanges: count("history-changes"),
                                  walBytes: size("wal"), storeBytes: size("store"))
        return valid ? limits : nil
    }

    /// `{ p50: 5ms, p90: 20ms, p99: 50ms, max: 200ms }` (any of them).
    func decodeLatencyBudget(_ node: YAMLNode) -> LatencyBudget? {
        guard let map = MappingReader(node, "a latency budget like { p99: 50ms }", decoder) else { return nil }
        map.rejectUnknownKeys(LatencyBudget.keys, in: "the latency budget")
        if map.pairs.isEmpty {
            decoder.error("the latency budget sets no limit; add one, like { p99: 50ms }.", at: node)
            return nil
        }
        func limit(_ key: String) -> UInt64? { map[key].flatMap { decoder.duration($0, "the \(key) limit") }.map(\.nanoseconds).map { UInt64(max(0, $0)) } }
        return LatencyBudget(p50: limit("p50"), p90: limit("p90"), p99: limit("p99"), max: limit("max"))
    }
}
