import Basics

/// Decoding the settings of a process (in `processes:` and in a variant's override of it).
extension ScenarioDecoder {
    /// Decodes every setting in `map` in file order; `role` is read by the caller when allowed.
    func decodeSettings(_ map: MappingReader, of process: String, allowingRole: Bool) -> [ProcessSetting] {
        var settings: [ProcessSetting] = []
        var syncLatency: ProcessSetting?
        for pair in map.pairs {
            guard let key = pair.key.scalar else { continue }
            // `sync: transfer, latency: 100ms`: the contract's "transfer with latency:", written beside it.
            if key == "latency" {
                guard map["sync"]?.scalar == "transfer" else {
                    decoder.error("latency: among a process's settings is its sync latency, which needs sync: transfer beside it "
                        + "(or write sync: { transfer: { latency: 100ms } })", at: pair.key)
                    continue
                }
                syncLatency = decoder.duration(pair.value, "the sync latency").map { .sync(.transfer(latency: $0)) }
                continue
            }
            if key == "role" || key == "framework" {
                // A variant that names the framework the process already has changes nothing.
                if key == "framework", !allowingRole, let declared = processes.first(where: { $0.name == process })?.settings.framework,
                   pair.value.scalar.flatMap({ PersistenceFramework(rawValue: $0) ?? PersistenceFramework.aliases[$0] }) == declared {
                    continue
                }
                if !allowingRole {
                    decoder.error("a variant cannot change the \(key) of '\(process)'; declare another process with "
                        + "that \(key) instead.", at: pair.key)
                }
                continue
            }
            if ProcessRole.workKeys[key] != nil {
                if !allowingRole {
                    decoder.error("a variant cannot change the \(key) of '\(process)'; give its steps only-in: instead.", at: pair.key)
                }
                continue
            }
            guard ProcessSetting.keys.contains(key) else {
                let known = ProcessSetting.keys + (allowingRole ? ["role"] : [])
                decoder.error("unknown setting '\(key)' for process '\(process)'" + Suggestion.hint(for: key, in: known),
                              at: pair.key)
                continue
            }
            if key == "model", !allowingRole, processes.first(where: { $0.name == process })?.role.isPerformed == true {
                refuseIntentModel(process, at: pair.key)
                continue
            }
            var node = pair.value
            if key == "contexts" {
                if allowingRole { declaredContexts[process] = node } else { node = mergedContexts(node, into: declaredContexts[process]) }
            }
            if let setting = decodeSetting(key, node) {
                settings.append(setting)
            }
        }
        if let syncLatency { settings.append(syncLatency) }
        return settings
    }

    private func decodeSetting(_ key: String, _ node: YAMLNode) -> ProcessSetting? {
        switch key {
        case "refresh": decoder.keyword(node, RefreshStrategy.self, "refresh strategy").map(ProcessSetting.refresh)
        case "staleness": decodeStaleness(node).map(ProcessSetting.staleness)
        case "trigger": decoder.keyword(node, RefreshTrigger.self, "trigger").map(ProcessSetting.trigger)
        case "poll-interval": positiveDuration(node, "poll-interval").map(ProcessSetting.pollInterval)
        case "observe": decoder.keyword(node, ObserveTiming.self, "observe timing").map(ProcessSetting.observe)
        case "merge-policy": decoder.keyword(node, MergePolicy.self, "merge policy").map(ProcessSetting.mergePolicy)
        case "history-tracking": decoder.bool(node, "history-tracking").map(ProcessSetting.historyTracking)
        case "author": decodeAuthor(node).map(ProcessSetting.author)
        case "history-authors": decodeHistoryAuthors(node).map(ProcessSetting.historyAuthors)
        case "history-entities": decodeHistoryEntities(node).map(ProcessSetting.historyEntities)
        case "history-change-types": decodeHistoryChangeTypes(node).map(ProcessSetting.historyChangeTypes)
        case "history-start": decoder.keyword(node, HistoryStart.self, "history start").map(ProcessSetting.historyStart)
        case "purge": decodePurgePolicy(node, "purge").map(ProcessSetting.purge)
        case "refetch": decoder.keyword(node, RefetchMode.self, "refetch mode").map(ProcessSetting.refetch)
        case "notify": decoder.bool(node, "notify").map(ProcessSetting.notify)
        case "delivery": decoder.keyword(node, DeliveryPolicy.self, "delivery").map(ProcessSetting.delivery)
        case "query-generation":
            decoder.keyword(node, QueryGeneration.self, "query generation").map(ProcessSetting.queryGeneration)
        case "busy-timeout": decoder.duration(node, "busy-timeout").map(ProcessSetting.busyTimeout)
        case "storage": decoder.keyword(node, StorageLocation.self, "storage").map(ProcessSetting.storage)
        case "sync": decodeSync(node).map(ProcessSetting.sync)
        case "read-only": decoder.bool(node, "read-only").map(ProcessSetting.readOnly)
        case "foreign-token": decoder.keyword(node, ForeignToken.self, "foreign-token").map(ProcessSetting.foreignToken)
        case "write-transactions":
            decoder.keyword(node, WriteTransactions.self, "write-transactions").map(ProcessSetting.writeTransactions)
        case "model": decodeModelVersionName(node).map(ProcessSetting.modelVersion)
        case "migrate": decoder.bool(node, "migrate").map(ProcessSetting.migrate)
        case "on-load-failure": decoder.keyword(node, LoadFailure.self, "on-load-failure").map(ProcessSetting.onLoadFailure)
        case "automatically-merges": decoder.bool(node, "automatically-merges").map(ProcessSetting.automaticallyMerges)
        case "contexts": decodeContexts(node).map(ProcessSetting.contexts)
        case "delete-inaccessible-faults":
            decoder.bool(node, "delete-inaccessible-faults").map(ProcessSetting.deleteInaccessibleFaults)
        case "reload-delay":
            decoder.duration(node, "reload-delay (on the simulated clock)", limit: Limits.simulatedTime).map(ProcessSetting.reloadDelay)
        case "reload-budget": decoder.int(node, "reload-budget (reloads per simulated day)", in: 0...Limits.objects).map(ProcessSetting.reloadBudget)
        case "between-reloads": decoder.keyword(node, BetweenWork.self, "between-reloads").map(ProcessSetting.betweenReloads)
        case "on-newer-model": decoder.keyword(node, OnNewerModel.self, "on-newer-model").map(ProcessSetting.onNewerModel)
        case "timeline-policy": decodeTimelinePolicy(node).map(ProcessSetting.timelinePolicy)
        case "between-pushes": decoder.keyword(node, BetweenWork.self, "between-pushes").map(ProcessSetting.betweenPushes)
        case "autosave": decoder.bool(node, "autosave").map(ProcessSetting.autosave)
        case "autosave-delay":
            decoder.duration(node, "autosave-delay (on the simulated clock)", limit: Limits.simulatedTime).map(ProcessSetting.autosaveDelay)
        case "runs-in":
            decoder.keyword(node, IntentTarget.self, "intent target (where its code is built)").map { target in
                if target == .app { references.appIntents.append(node) }
                return ProcessSetting.runsIn(target)
            }
        case "widget-button":
            decoder.name(node, "the name of the widget whose button runs the intent, or none").map { name in
                guard name != "none" else { return ProcessSetting.widgetButton(nil) }
                references.widgetButtons.append((name, node))
                return ProcessSetting.widgetButton(name)
            }
        case "control":
            decoder.name(node, "the name of the control whose tap runs the intent, or none").map { name in
                guard name != "none" else { return ProcessSetting.control(nil) }
                references.controls.append((name, node))
                return ProcessSetting.control(name)
            }
        default: nil
        }
    }

    /// `model: v1`: a version declared under `store.models`.
    /// A version `store.models` declares, named at `node` (the value of `key`).
    func decodeModelVersionName(_ node: YAMLNode, key: String = "model") -> String? {
        guard let name = decoder.name(node, "a model version like v1") else { return nil }
        let names = modelVersions.map(\.name)
        guard !names.isEmpty else {
            decoder.error("\(key): names a version of store.models, but the store declares one model (store.model); "
                + "declare the versions under models: { v1: ..., v2: ... }.", at: node)
            return nil
        }
        guard names.contains(name) else {
            decoder.error("unknown model version '\(name)'" + Suggestion.hint(
                for: name, in: names, otherwise: "the store's versions are \(Suggestion.list(names)).") , at: node)
            return nil
        }
        return name
    }

    /// Seconds (`-1`, `0`, `2.5`; any negative number never expires) or a duration (`500ms`).
    private func decodeStaleness(_ node: YAMLNode) -> Staleness? {
        if let text = node.scalar, !node.isQuoted, let seconds = Double(text), seconds.isFinite {
            if seconds < 0 { return .infinite }
            do {
                let duration = try Duration(parsing: text + "s")
                if duration <= Limits.simulatedTime { return .interval(duration) }
            } catch .outOfRange {
                decoder.error("the staleness \(text) s is finer than a microsecond; round it to whole microseconds "
                    + "(0.000001 is the finest), or write 0 to always re-read.", at: node)
                return nil
            } catch {}
        } else if let text = node.scalar, !node.isNull, let duration = try? Duration(parsing: text), duration <= Limits.simulatedTime {
            return .interval(duration)
        }
        decoder.error("expected staleness in seconds, like -1 (never expire), 0 (always re-read) or 2.5, or a "
            + "duration like 500ms (at most \(Limits.simulatedTime)), but found \(node.shortDescription).", at: node)
        return nil
    }

    func positiveDuration(_ node: YAMLNode, _ what: String) -> Duration? {
        guard let duration = decoder.duration(node, what) else { return nil }
        guard duration > .zero else {
            decoder.error("\(what) must be longer than 0; write a duration like 100ms.", at: node)
            return nil
        }
        return duration
    }

    /// `none`, or the name to write as the transaction author.
    private func decodeAuthor(_ node: YAMLNode) -> TransactionAuthor? {
        guard let name = decoder.string(node, "an author name, or none") else { return nil }
        if name == "none" { return TransactionAuthor.none }
        references.declaredAuthors.insert(name)
        return .named(name)
    }

    /// A list of entities of the model: the changes a history merge keeps.
    private func decodeHistoryEntities(_ node: YAMLNode) -> [String]? {
        guard let names = decoder.scalarList(node, "history-entities") else { return nil }
        if names.isEmpty {
            decoder.error("history-entities: [] would merge no change at all; list the entities to merge, like [Note], "
                + "or leave the setting out to merge every entity.", at: node)
            return nil
        }
        let known = model?.entities.map(\.name) ?? []
        for (name, at) in names where model != nil && !known.contains(name) {
            decoder.error("history-entities names '\(name)', which is no entity of the model" + Suggestion.hint(for: name, in: known), at: at)
        }
        return names.map(\.0)
    }

    /// A list of kinds of change (`[insert, delete]`): the changes a history merge keeps.
    private func decodeHistoryChangeTypes(_ node: YAMLNode) -> [ChangeOperation]? {
        guard let names = decoder.scalarList(node, "history-change-types", allowingSingle: true) else { return nil }
        if names.isEmpty {
            decoder.error("history-change-types: [] would merge no change at all; list the kinds to merge, like [insert, delete], "
                + "or leave the setting out to merge every change.", at: node)
            return nil
        }
        var kinds: [ChangeOperation] = []
        for (_, at) in names {
            guard let kind = decoder.keyword(at, ChangeOperation.self, "change type") else { continue }
            if kinds.contains(kind) {
                decoder.error("history-change-types names \(kind.rawValue) twice.", at: at)
            } else {
                kinds.append(kind)
            }
        }
        return kinds.count == names.count ? kinds : nil
    }

    /// `all-but-own`, or a list of author names.
    private func decodeHistoryAuthors(_ node: YAMLNode) -> HistoryAuthors? {
        if node.scalar == "all-but-own" { return .allButOwn }
        if node.scalar != nil, !node.isNull {
            decoder.error("expected history-authors as a list of authors like [app, share], or all-but-own, "
                + "but found \(node.shortDescription).", at: node)
            return nil
        }
        guard let names = decoder.scalarList(node, "history-authors") else { return nil }
        if names.isEmpty {
            decoder.error("history-authors: [] would merge no transaction at all; list the authors to merge, like "
                + "[share], or write all-but-own.", at: node)
            return nil
        }
        references.historyAuthors += names.map { (name: $0.0, node: $0.1) }
        return .only(names.map(\.0))
    }


    /// `none`, `consumed-by-all`, `own-token` or `{ older-than: 7d }`.
    func decodePurgePolicy(_ node: YAMLNode, _ what: String) -> PurgePolicy? {
        let spellings = ["none", "consumed-by-all", "own-token", "older-than"]
        if let text = node.scalar, !node.isNull {
            switch text {
            case "none": return PurgePolicy.none
            case "consumed-by-all": return .consumedByAll
            case "own-token": return .ownToken
            case "older-than":
                decoder.error("older-than needs a duration; write it as { older-than: 7d }.", at: node)
            default:
                decoder.error("unknown \(what) policy '\(text)'" + Suggestion.hint(for: text, in: spellings), at: node)
            }
            return nil
        }
        guard let map = MappingReader(node, "a purge policy like { older-than: 7d }", decoder) else { return nil }
        map.rejectUnknownKeys(["older-than"], in: "the purge policy")
        guard let duration = map.required("older-than", in: "the purge policy", example: "{ older-than: 7d }")
            .flatMap({ decoder.duration($0, "older-than", limit: Limits.simulatedTime) }) else { return nil }
        return .olderThan(duration)
    }

    /// `none`, `transfer`, `{ transfer: { latency: 2s } }` or `{ transfer: true, latency: 2s }`.
    private func decodeSync(_ node: YAMLNode) -> SyncMode? {
        if model?.hasInheritance == true, node.scalar != "none" {
            decoder.error("sync of a store whose model has sub-entities is not supported yet.", at: node)
            return nil
        }
        if let text = node.scalar, !node.isNull {
            switch text {
            case "none": return SyncMode.none
            case "transfer": return .transfer(latency: .zero)
            default:
                decoder.error("unknown sync '\(text)'" + Suggestion.hint(for: text, in: ["none", "transfer"]), at: node)
                return nil
            }
        }
        guard let map = MappingReader(node, "sync (none, transfer, or { transfer: { latency: 2s } })", decoder)
        else { return nil }
        map.rejectUnknownKeys(["transfer", "latency"], in: "sync")
        guard let transfer = map.required("transfer", in: "sync", example: "{ transfer: { latency: 2s } }") else {
            return nil
        }
        var latency = map["latency"].flatMap { decoder.duration($0, "the sync latency") }
        if transfer.pairs != nil {
            guard let inner = MappingReader(transfer, "the transfer settings", decoder) else { return nil }
            inner.rejectUnknownKeys(["latency"], in: "the transfer settings")
            if map["latency"] != nil, let node = inner.keyNode("latency") {
                decoder.error("the sync latency is given twice; keep only one.", at: node)
            }
            latency = inner["latency"].flatMap { decoder.duration($0, "the sync latency") } ?? latency
        } else if decoder.bool(transfer, "transfer") == false {
            decoder.error("transfer: false turns sync off; write sync: none instead.", at: transfer)
            return nil
        }
        return .transfer(latency: latency ?? .zero)
    }

    /// How many contexts deep `context` is: 1 for a child of the view context or a background context.
    private func depth(of context: ContextDeclaration, in declared: [ContextDeclaration]) -> Int {
        var depth = 1
        var parent = context.parent
        while case .context(let name) = parent, let next = declared.first(where: { $0.name == name }), depth <= Limits.contextDepth {
            depth += 1
            parent = next.parent
        }
        return depth
    }

    /// A variant's `contexts:` over the process's own: a context it names keeps the settings it does not
    /// give (`editor: { staleness: 0 }` leaves the editor a child of the view) and its place, one it does
    /// not name stays as declared, and a new one is added after them. Replaced whole, a variant that changed
    /// one setting of a context silently made it a background context of the store, and dropped the others.
    func mergedContexts(_ override: YAMLNode, into declared: YAMLNode?) -> YAMLNode {
        guard let declared, var merged = declared.pairs, let overrides = override.pairs else { return override }
        for entry in overrides {
            guard let index = merged.firstIndex(where: { $0.key.scalar != nil && $0.key.scalar == entry.key.scalar }) else {
                merged.append(entry)
                continue
            }
            guard var settings = merged[index].value.pairs, let replaced = entry.value.pairs else {
                merged[index] = entry
                continue
            }
            for setting in replaced { settings.replaceOrAppend(setting) }
            merged[index] = YAMLNode.Pair(key: entry.key, value: YAMLNode(kind: .mapping(settings), line: entry.value.line,
                                                                           column: entry.value.column))
        }
        return YAMLNode(kind: .mapping(merged), line: override.line, column: override.column)
    }

    /// `contexts: { editor: { parent: view }, importer: { automatically-merges: true } }`: each name once,
    /// each parent `store`, `view` or a context declared before it (so there is no cycle).
    private func decodeContexts(_ node: YAMLNode) -> [ContextDeclaration]? {
        guard let map = MappingReader(node, "contexts (a mapping like { editor: { parent: view } })", decoder) else {
            return nil
        }
        var declared: [ContextDeclaration] = []
        for pair in map.pairs {
            guard let name = decoder.name(pair.key, "a context name like editor") else { continue }
            guard name != "view" && name != "store" else {
                decoder.error("'\(name)' names a parent, not a context; call the context something else (editor, importer).", at: pair.key)
                continue
            }
            guard let settings = MappingReader(pair.value, "the settings of context '\(name)' (like { parent: view })", decoder)
            else { continue }
            settings.rejectUnknownKeys(["parent", "automatically-merges", "author", "merge-policy", "staleness"], in: "context '\(name)'")
            var declaration = ContextDeclaration(name: name)
            if let merges = settings["automatically-merges"] {
                declaration.automaticallyMerges = decoder.bool(merges, "automatically-merges") ?? false
            }
            // The context's own `transactionAuthor`, `mergePolicy` and `stalenessInterval`.
            if let node = settings["author"] { declaration.author = decodeAuthor(node) }
            if let node = settings["merge-policy"] { declaration.mergePolicy = decoder.keyword(node, MergePolicy.self, "merge policy") }
            if let node = settings["staleness"] { declaration.staleness = decodeStaleness(node) }
            if let parentNode = settings["parent"], let parent = decoder.name(parentNode, "a parent (store, view or a context declared above)") {
                switch parent {
                case "store": declaration.parent = .store
                case "view": declaration.parent = .view
                case name:
                    decoder.error("context '\(name)' cannot be its own parent.", at: parentNode)
                default:
                    if declared.contains(where: { $0.name == parent }) {
                        declaration.parent = .context(parent)
                        if depth(of: declaration, in: declared) > Limits.contextDepth {
                            decoder.error("context '\(name)' nests more than \(Limits.contextDepth) contexts deep; "
                                + "apps nest two or three.", at: parentNode)
                        }
                    } else {
                        let known = ["store", "view"] + declared.map(\.name)
                        decoder.error("context '\(name)' names parent '\(parent)', which is neither store, view nor a context declared above it"
                            + Suggestion.hint(for: parent, in: known), at: parentNode)
                    }
                }
            }
            declared.append(declaration)
        }
        return declared
    }
}

extension ScenarioDecoder {
    /// `never`, `{ after: 15m }` or `{ at-end: 1h }`: a duration above zero on the simulated clock.
    func decodeTimelinePolicy(_ node: YAMLNode) -> TimelinePolicy? {
        let expected = "never, { after: 15m } or { at-end: 1h } (when the system reloads the widget after each reload)"
        if node.scalar == "never" { return .never }
        guard let pairs = node.pairs, pairs.count == 1, let key = pairs[0].key.scalar, key == "after" || key == "at-end" else {
            decoder.error("expected timeline-policy: \(expected), but found \(node.shortDescription).", at: node)
            return nil
        }
        guard let duration = decoder.duration(pairs[0].value, "timeline-policy's \(key) (on the simulated clock)", limit: Limits.simulatedTime) else {
            return nil
        }
        guard duration.microseconds > 0 else {
            decoder.error("a timeline reloaded 0 after each reload would reload for ever; give a duration above zero, or never.", at: pairs[0].value)
            return nil
        }
        return key == "after" ? .after(duration) : .atEnd(duration)
    }
}
