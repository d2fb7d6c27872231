import Basics

/// Decoding `steps:`: each item is `<process>: <action>` or a control step.
extension ScenarioDecoder {
    /// Actions that take no argument: written bare (`- app: save`) or with `true` (`{ save: true }`).
    static let bareActions: [String: Step] = [
        "launch": .launch, "exit": .exit, "crash": .crash, "background": .background, "suspend": .suspend,
        "resume": .resume, "foreground": .foreground, "terminate": .terminate, "observe": .observe,
        "deliver": .deliver,
        "save": .save, "rollback": .rollback, "reset": .reset, "refresh": .refreshAll, "run-refresh": .runRefresh,
        "pin-generation": .pinGeneration, "unpin-generation": .unpinGeneration, "begin-write": .beginWrite,
        "end-write": .endWrite, "merge-history": .mergeHistory, "purge-history": .purgeHistory(policy: nil),
        "checkpoint": .checkpoint, "sync": .sync, "leech": .leech,
    ]

    /// Actions that take an argument, with the other keys each one accepts.
    static let argumentActions: [String: [String]] = [
        "insert": ["id", "set"], "update": ["set"], "delete": [], "relate": ["to", "via"],
        "unrelate": ["from", "via"], "fetch": ["where", "sort"], "refresh": ["merge"],
        "batch-insert": ["count", "set"], "batch-update": ["where", "set"], "batch-delete": ["where"],
        "pin-generation": [], "purge-history": [], "post": [], "copy-store": ["with-wal"], "open-copy": [],
        "read": ["expect", "within", "now"], "count": ["expect", "where", "within", "now"],
    ]

    /// Every action name, in a stable order for messages.
    static let actionNames: [String] = Array(Set(bareActions.keys).union(argumentActions.keys)).sorted()

    func decodeSteps(_ node: YAMLNode) -> [ScenarioStep] {
        guard let items = node.items else {
            decoder.error("expected steps as a list, each item starting with '- ', but found \(node.shortDescription).",
                          at: node)
            return []
        }
        if items.isEmpty {
            decoder.error("the scenario has no steps; add some, like - app: launch.", at: node)
        }
        return items.flatMap { decodeStep($0) }
    }

    /// Decodes one step: a mapping with one key, a process name or a control word. A process step with
    /// `variants:` is several: its own version for the variants it names, and the step for the others.
    func decodeStep(_ node: YAMLNode) -> [ScenarioStep] {
        guard let pairs = node.pairs, let first = pairs.first, let key = first.key.scalar else {
            decoder.error("expected a step like '- app: save' or '- sleep: 50ms', but found \(node.shortDescription).",
                          at: node)
            return []
        }
        if pairs.count > 1, let second = pairs[1].key.scalar {
            decoder.error("a step has exactly one key, a process or a control word, but this one also has '\(second)'; "
                + "put each on its own '- ' line (or inside parallel:), or wrap the action's arguments in { }.",
                at: pairs[1].key)
        }
        let location = decoder.location(of: first.key)
        if ScenarioDecoder.controlKeywords.contains(key) {
            return decodeControlStep(key, first.value, at: location).map { [$0] } ?? []
        }
        guard knowsProcesses, !processNames.contains(key) else {
            guard let (step, expectError, onlyIn) = decodeAction(first.value, process: key) else { return [] }
            let versions = decodeVariantVersions(first.value, process: key, location: location, onlyIn: onlyIn)
            let base = ScenarioStep(location: location, process: key, step: step, expectError: expectError, onlyIn: onlyIn,
                                    exceptIn: versions.isEmpty ? nil : versions.compactMap(\.onlyIn?.first))
            return [base] + versions
        }
        decoder.error("unknown process '\(key)'" + Suggestion.hint(
            for: key, in: processNames + ScenarioDecoder.controlKeywords,
            otherwise: "declare it under processes:, or start the step with a declared process "
                + "(\(Suggestion.list(processNames))) or a control word "
                + "(\(Suggestion.list(ScenarioDecoder.controlKeywords)))."), at: first.key)
        return []
    }

    /// A step's `variants: { slow: { within: 5s } }`: for each named variant, the step with those
    /// arguments in place of its own (the action itself stays), running only in that variant.
    private func decodeVariantVersions(_ node: YAMLNode, process: String, location: SourceLocation,
                                       onlyIn: [String]?) -> [ScenarioStep] {
        guard let pairs = node.pairs, let overridesNode = pairs.first(where: { $0.key.scalar == "variants" })?.value,
              let overrides = MappingReader(overridesNode, "the step's variants, like { slow: { within: 5s } }", decoder) else {
            return []
        }
        stepsWithVersions.insert(location)
        let base = pairs.filter { $0.key.scalar != "variants" && $0.key.scalar != "only-in" }
        var versions: [ScenarioStep] = []
        for override in overrides.pairs {
            guard let name = override.key.scalar else { continue }
            stepVariantNames.append((name, override.key))
            if let onlyIn, !onlyIn.contains(name) {
                decoder.error("the step runs only in \(Suggestion.list(onlyIn)), so it has no version for '\(name)'; "
                    + "add '\(name)' to its only-in, or drop this override.", at: override.key)
                continue
            }
            guard let replaced = MappingReader(override.value, "the arguments the step takes in '\(name)', like { within: 5s }", decoder) else {
                continue
            }
            var merged = base
            var valid = true
            for pair in replaced.pairs {
                guard let key = pair.key.scalar else { continue }
                if key == "variants" || key == "only-in" {
                    decoder.error("'\(key)' cannot be given per variant; set it on the step itself.", at: pair.key)
                    valid = false
                } else if let index = merged.firstIndex(where: { $0.key.scalar == key }) {
                    merged[index] = pair
                } else {
                    merged.append(pair)
                }
            }
            let node = YAMLNode(kind: .mapping(merged), line: node.line, column: node.column)
            guard valid, let (step, expectError, _) = decodeAction(node, process: process) else { continue }
            versions.append(ScenarioStep(location: location, process: process, step: step, expectError: expectError, onlyIn: [name]))
        }
        return versions
    }

    /// Decodes a process's action: a bare word, or a mapping with one action key and its arguments.
    private func decodeAction(_ node: YAMLNode, process: String) -> (Step, ExpectedError?, [String]?)? {
        if node.isNull {
            decoder.error("the step for '\(process)' has no action; write one, like - \(process): save.", at: node)
            return nil
        }
        if let word = node.scalar {
            if let step = ScenarioDecoder.bareActions[word] { return (step, nil, nil) }
            if let modifiers = ScenarioDecoder.argumentActions[word] {
                let example = ScenarioDecoder.example(of: word, modifiers: modifiers)
                decoder.error("'\(word)' needs an argument; write it like - \(process): \(example).", at: node)
            } else {
                decoder.error("unknown action '\(word)'" + Suggestion.hint(for: word, in: ScenarioDecoder.actionNames),
                              at: node)
            }
            return nil
        }
        guard let map = MappingReader(node, "the action of '\(process)'", decoder) else { return nil }
        guard let action = selectAction(map, process: process) else { return nil }
        let modifiers = ScenarioDecoder.argumentActions[action] ?? []
        map.rejectUnknownKeys([action] + modifiers + ["expect-error", "only-in", "variants"], in: "the \(action) step")
        let expectError = map["expect-error"].flatMap { decoder.keyword($0, ExpectedError.self, "expected error") }
        let onlyIn = map["only-in"].flatMap(decodeVariantNames)
        let argument = map[action]!
        if let step = ScenarioDecoder.bareActions[action], argument.scalar.map({ ["true", "True", "TRUE"].contains($0) }) == true,
           !argument.isQuoted, !(action == "refresh" && map["merge"] != nil) {
            return (step, expectError, onlyIn)
        }
        guard ScenarioDecoder.argumentActions[action] != nil else {
            decoder.error("'\(action)' takes no argument; write \(action): true, or just - \(process): \(action).",
                          at: argument)
            return nil
        }
        guard let step = decodeArgumentAction(action, argument, map) else { return nil }
        return (step, expectError, onlyIn)
    }

    /// The one action key of a step's mapping. A key that is both an action and an argument of another
    /// action present (`count` in `{ batch-insert: Note, count: 10 }`) counts as the argument.
    private func selectAction(_ map: MappingReader, process: String) -> String? {
        var actions = map.keys.filter { ScenarioDecoder.actionNames.contains($0) }
        if actions.count > 1 {
            actions = actions.filter { candidate in
                !actions.contains { ScenarioDecoder.argumentActions[$0]?.contains(candidate) == true }
            }
        }
        if actions.count > 1 {
            decoder.error("a step does one action, but this one has \(Suggestion.list(actions.map { "'\($0)'" })); "
                + "split it into one step per action.", at: map.keyNode(actions[1])!)
            return nil
        }
        if let action = actions.first { return action }
        let unknown = map.pairs.first { !["expect-error", "only-in", "variants"].contains($0.key.scalar ?? "") }
        if let key = unknown?.key, let word = key.scalar {
            decoder.error("unknown action '\(word)'" + Suggestion.hint(for: word, in: ScenarioDecoder.actionNames), at: key)
        } else {
            decoder.error("the step for '\(process)' has no action; add one, like { save: true, expect-error: conflict }.",
                          at: map.node)
        }
        return nil
    }

    /// An example of an action with its arguments, for messages.
    static func example(of action: String, modifiers: [String]) -> String {
        let examples = [
            "insert": "{ insert: Note, id: n1, set: { title: A } }", "update": "{ update: n1, set: { title: B } }",
            "delete": "{ delete: n1 }", "relate": "{ relate: n1, to: t1, via: tags }",
            "unrelate": "{ unrelate: n1, from: t1, via: tags }", "fetch": "{ fetch: Note }",
            "batch-insert": "{ batch-insert: Note, count: 1000 }",
            "batch-update": "{ batch-update: Note, where: \"rank > 2\", set: { pinned: true } }",
            "batch-delete": "{ batch-delete: Note, where: \"rank > 2\" }", "post": "{ post: notes-changed }",
            "copy-store": "{ copy-store: backup, with-wal: false }", "open-copy": "{ open-copy: backup }",
            "read": "{ read: n1, expect: { title: B }, within: 200ms }", "count": "{ count: Note, expect: 3 }",
        ]
        return examples[action] ?? "{ \(action): ... }"
    }

    /// `only-in: [fixed]` or `only-in: fixed`: the variants a step runs in (checked against the
    /// declared variants once they are decoded).
    private func decodeVariantNames(_ node: YAMLNode) -> [String]? {
        if let name = node.scalar, !name.isEmpty { return [name] }
        guard let items = node.items, !items.isEmpty else {
            decoder.error("only-in takes a variant name or a list of them, like only-in: [fixed].", at: node)
            return nil
        }
        var names: [String] = []
        for item in items {
            guard let name = item.scalar else {
                decoder.error("only-in takes variant names, like only-in: [fixed].", at: item)
                return nil
            }
            names.append(name)
        }
        return names
    }
}
