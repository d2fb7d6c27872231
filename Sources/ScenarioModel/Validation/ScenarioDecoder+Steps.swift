import Basics

/// Decoding `steps:`: each item is `<process>: <action>` or a control step.
extension ScenarioDecoder {
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
        guard var pairs = node.pairs, pairs.count > 0 else {
            decoder.error("expected a step like '- app: save' or '- sleep: 50ms', but found \(node.shortDescription).",
                          at: node)
            return []
        }
        // `- { only-in: slow, sleep: 1s }`: the control word is the step's key whichever comes first.
        if pairs.count == 2, pairs[0].key.scalar == "only-in", pairs[1].key.scalar.map(ScenarioDecoder.controlKeywords.contains) == true {
            pairs.swapAt(0, 1)
        }
        guard let first = pairs.first, let key = first.key.scalar else {
            decoder.error("expected a step like '- app: save' or '- sleep: 50ms', but found \(node.shortDescription).",
                          at: node)
            return []
        }
        // A control step may name the variants it runs in beside its word: `- { sleep: 1s, only-in: slow }`.
        let isControl = ScenarioDecoder.controlKeywords.contains(key)
        let onlyInPair = isControl && pairs.count == 2 && pairs[1].key.scalar == "only-in" ? pairs[1] : nil
        if pairs.count > 1, onlyInPair == nil, let second = pairs[1].key.scalar {
            decoder.error("a step has exactly one key, a process or a control word, but this one also has '\(second)'; "
                + "put each on its own '- ' line (or inside parallel:), or wrap the action's arguments in { }"
                + (isControl ? "; a control step may take only-in: beside its word." : "."),
                at: pairs[1].key)
        }
        let location = decoder.location(of: first.key)
        if isControl {
            guard var step = decodeControlStep(key, first.value, at: location) else { return [] }
            if let onlyInPair { step.onlyIn = decodeVariantNames(onlyInPair.value) }
            return [step]
        }
        guard knowsProcesses, !processNames.contains(key) else {
            guard let (step, expectError, onlyIn) = decodeAction(first.value, process: key) else { return [] }
            fit.checkRole(of: step, process: key, at: first.value)
            fit.checkFramework(of: step, process: key, at: first.value)
            if case .push(let payload) = step { notePush(payload, process: key, at: first.value) }
            let context = decodeContext(first.value, step: step, process: key)
            if case .pinGeneration(let source?) = step {
                let at = first.value.pairs?.first?.value ?? first.value
                if source == "view", first.value.pairs?.contains(where: { $0.key.scalar == "context" }) != true {
                    decoder.error("the step runs through the view context, which already shares its own query generation; pin "
                        + "another context from it with context:, or write pin-generation: current.", at: at)
                } else if source != "view", fit.isChildContext(source, of: key) {
                    decoder.error("\(source) is a child context: it has no query generation of its own to share; pin from its "
                        + "parent.", at: at)
                } else if source != "view" {
                    references.generationSources.append((key, source, at))
                }
            }
            let versions = decodeVariantVersions(first.value, process: key, location: location, onlyIn: onlyIn, context: context)
            var base = ScenarioStep(location: location, process: key, step: step, expectError: expectError, onlyIn: onlyIn,
                                    exceptIn: versions.isEmpty ? nil : versions.compactMap(\.onlyIn?.first))
            base.context = context
            return [base] + versions
        }
        // `- deliver: app`: an action written where the process goes.
        if let word = ActionWord(rawValue: key), !processNames.contains(key) {
            let process = first.value.scalar.flatMap { processNames.contains($0) ? $0 : nil } ?? processNames.first ?? "app"
            // An action with an argument is shown with one, as it must be written.
            let action = word.modifiers == nil ? key : word.example
            decoder.error("'\(key)' is an action, which a process takes: the step starts with the process, "
                + "like - \(process): \(action).", at: first.key)
            return []
        }
        decoder.error("unknown process '\(key)'" + Suggestion.hint(
            for: key, in: processNames + ScenarioDecoder.controlKeywords,
            otherwise: "declare it under processes:, or start the step with a declared process "
                + "(\(Suggestion.list(processNames))) or a control word "
                + "(\(Suggestion.list(ScenarioDecoder.controlKeywords)))."), at: first.key)
        return []
    }

    /// `context: bg` (`StepFit.context(_:step:process:)`), noted as used for the check of `contexts:`.
    private func decodeContext(_ node: YAMLNode, step: Step, process: String) -> String? {
        guard let name = fit.context(node, step: step, process: process) else { return nil }
        references.usedContexts.insert([process, name])
        return name
    }

    /// Checks of a step against the process that takes it.
    var fit: StepFit { StepFit(decoder: decoder, processes: processes) }

    /// Decodes each process's work (`on-reload:`, `on-push:`): a list of its actions, written without the
    /// process name, as steps take them; `only-in:` selects per variant. An `on-push:` whose pushes carry
    /// payloads is decoded once per payload (`decodePayloadWork`).
    func decodePendingWork() {
        for (process, key, node) in pendingWork {
            guard let index = processes.firstIndex(where: { $0.name == process }) else { continue }
            if let works = decodePayloadWork(node, process: process, key: key) {
                processes[index].payloadWork = works
            } else {
                processes[index].work += decodeWorkItems(node, process: process, key: key)
            }
        }
    }

    /// The steps of one role's work.
    func decodeWorkItems(_ node: YAMLNode, process: String, key: String) -> [ScenarioStep] {
        guard let items = node.items else {
            decoder.error("expected \(key) as a list of actions, like [ { fetch: Note }, { read: n1 } ], but found "
                + "\(node.shortDescription).", at: node)
            return []
        }
        var work: [ScenarioStep] = []
        for item in items {
            if let pairs = item.pairs, let variants = pairs.first(where: { $0.key.scalar == "variants" }) {
                decoder.error("a step of \(key) cannot take variants:; give it only-in: instead.", at: variants.key)
                continue
            }
            actions.decodingSystemWork = true
            actions.perReloadCounts = nil
            defer { actions.decodingSystemWork = false }
            guard let (step, expectError, onlyIn) = decodeAction(item, process: process) else { continue }
            // A notification service extension may ask for widget and control reloads, as iOS lets it.
            if ActionWord(step)?.isSystem == true,
               !(key == "on-push" && ActionWord(step)?.isReload == true) {
                decoder.error("\(step.keyword) cannot be part of \(key): the system launches, suspends and ends '\(process)' "
                    + "around its work itself.", at: item)
                continue
            }
            fit.checkRole(of: step, process: process, at: item)
            let location = decoder.location(of: item.pairs?.first?.key ?? item)
            var planned = ScenarioStep(location: location, process: process, step: step, expectError: expectError, onlyIn: onlyIn)
            planned.perReload = actions.perReloadCounts.flatMap { $0.count > 1 ? $0 : nil }
            work.append(planned)
        }
        return work
    }

    /// Registers the ids a role's work inserts, so the steps may name them before the work is decoded.
    func registerWorkInserts(_ node: YAMLNode) {
        for item in node.items ?? [] {
            guard let pairs = item.pairs, let insert = pairs.first(where: { $0.key.scalar == "insert" })?.value.scalar,
                  let idNode = pairs.first(where: { $0.key.scalar == "id" })?.value, let id = idNode.scalar, !id.hasPrefix("$"),
                  objects[id] == nil else { continue }
            actions.register(id, entity: insert, at: idNode)
        }
    }

    /// A step's `variants: { slow: { within: 5s } }`: for each named variant, the step with those
    /// arguments in place of its own (the action itself stays; `context:` among them), running only in
    /// that variant. `context` is the step's own.
    private func decodeVariantVersions(_ node: YAMLNode, process: String, location: SourceLocation,
                                       onlyIn: [String]?, context: String?) -> [ScenarioStep] {
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
                } else {
                    merged.replaceOrAppend(pair)
                }
            }
            let node = YAMLNode(kind: .mapping(merged), line: node.line, column: node.column)
            guard valid, let (step, expectError, _) = decodeAction(node, process: process) else { continue }
            if case .push(let payload) = step { notePush(payload, process: process, at: node) }
            var version = ScenarioStep(location: location, process: process, step: step, expectError: expectError, onlyIn: [name])
            // The context too is an argument a variant may replace (or add): `{ context: importer }`.
            let replacesContext = replaced.pairs.contains { $0.key.scalar == "context" }
            version.context = replacesContext ? decodeContext(node, step: step, process: process) : context
            versions.append(version)
        }
        return versions
    }

    /// Decodes a process's action: a bare word, or a mapping with one action key and its arguments.
    private func decodeAction(_ node: YAMLNode, process: String) -> (Step, ErrorKind?, [String]?)? {
        // Checked against the model version the process opens the store with.
        let newest = model
        if let version = processes.first(where: { $0.name == process })?.settings.modelVersion,
           let declared = modelVersions.first(where: { $0.name == version }) {
            model = declared.model
        }
        defer { model = newest }
        if node.isNull {
            decoder.error("the step for '\(process)' has no action; write one, like - \(process): save.", at: node)
            return nil
        }
        if let word = node.scalar {
            if let step = ActionWord(rawValue: word)?.bareStep { return (step, nil, nil) }
            if let action = ActionWord(rawValue: word) {
                decoder.error("'\(word)' needs an argument; write it like - \(process): \(action.example).", at: node)
            } else {
                decoder.error("unknown action '\(word)'" + Suggestion.hint(for: word, in: ActionWord.names), at: node)
            }
            return nil
        }
        guard let map = MappingReader(node, "the action of '\(process)'", decoder) else { return nil }
        guard let action = selectAction(map, process: process) else { return nil }
        let word = action.rawValue
        map.rejectUnknownKeys([word] + (action.modifiers ?? []) + ["expect-error", "only-in", "variants", "context"],
                              in: "the \(word) step")
        let expectError = map["expect-error"].flatMap { decoder.keyword($0, ErrorKind.self, "error kind") }
        let onlyIn = map["only-in"].flatMap(decodeVariantNames)
        let argument = map[word]!
        if let step = action.bareStep, argument.scalar.map({ ["true", "True", "TRUE"].contains($0) }) == true,
           !argument.isQuoted, !(action == .refresh && map["merge"] != nil), !(action == .purgeHistory && map["expect"] != nil) {
            return (step, expectError, onlyIn)
        }
        guard action.modifiers != nil else {
            decoder.error("'\(word)' takes no argument; write \(word): true, or just - \(process): \(word).",
                          at: argument)
            return nil
        }
        guard let step = actions.decodeArgumentAction(action, argument, map, process: process) else {
            // Its work would only echo the payload's error with each `$name` it takes.
            if action == .push { unreadPayloads.insert(process) }
            return nil
        }
        return (step, expectError, onlyIn)
    }

    /// The one action key of a step's mapping. A key that is both an action and an argument of another
    /// action present (`count` in `{ batch-insert: Note, count: 10 }`) counts as the argument.
    private func selectAction(_ map: MappingReader, process: String) -> ActionWord? {
        var actions = map.keys.compactMap(ActionWord.init(rawValue:))
        if actions.count > 1 {
            actions = actions.filter { candidate in
                !actions.contains { $0.modifiers?.contains(candidate.rawValue) == true }
            }
        }
        if actions.count > 1 {
            decoder.error("a step does one action, but this one has \(Suggestion.list(actions.map { "'\($0.rawValue)'" })); "
                + "split it into one step per action.", at: map.keyNode(actions[1].rawValue)!)
            return nil
        }
        if let action = actions.first { return action }
        let unknown = map.pairs.first { !["expect-error", "only-in", "variants", "context"].contains($0.key.scalar ?? "") }
        if let key = unknown?.key, let word = key.scalar {
            decoder.error("unknown action '\(word)'" + Suggestion.hint(for: word, in: ActionWord.names), at: key)
        } else {
            decoder.error("the step for '\(process)' has no action; add one, like { save: true, expect-error: conflict }.",
                          at: map.node)
        }
        return nil
    }

    /// `only-in: [fixed]` or `only-in: fixed`: the variants a step runs in (checked against the
    /// declared variants once they are decoded).
    private func decodeVariantNames(_ node: YAMLNode) -> [String]? {
        if let name = node.scalar, !name.isEmpty { return [name] }
        guard let items = node.items, !items.isEmpty else {
            decoder.error(node.items != nil
                ? "only-in: [] names no variant, so the step would never run; name the variants it runs in, or remove only-in."
                : "only-in takes a variant name or a list of them, like only-in: [fixed].", at: node)
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
