import Basics

// The values of settings, each read from its node: they need none of the scenario pass's state (what a value
// needs of the scenario, the model or its versions' names, comes in as an argument).
extension NodeDecoder {
    /// An App Intent's steps run in the app's or a widget's process, through that process's store: its
    /// model is theirs.
    func refuseIntentModel(_ process: String, at node: YAMLNode) {
        error("an App Intent runs in the app's or a widget's process and uses that process's model, so "
            + "'\(process)' takes no model:; give model: to those processes.", at: node)
    }

    /// A version `store.models` declares (`names`, oldest first), named at `node` (the value of `key`).
    func modelVersionName(_ node: YAMLNode, key: String = "model", versions names: [String]) -> String? {
        guard let name = self.name(node, "a model version like v1") else { return nil }
        guard !names.isEmpty else {
            self.error("\(key): names a version of store.models, but the store declares one model (store.model); "
                + "declare the versions under models: { v1: ..., v2: ... }.", at: node)
            return nil
        }
        guard names.contains(name) else {
            self.error("unknown model version '\(name)'" + Suggestion.hint(
                for: name, in: names, otherwise: "the store's versions are \(Suggestion.list(names)).") , at: node)
            return nil
        }
        return name
    }

    /// Seconds (`-1`, `0`, `2.5`; any negative number never expires) or a duration (`500ms`).
    func staleness(_ node: YAMLNode) -> Staleness? {
        if let text = node.scalar, !node.isQuoted, let seconds = Double(text), seconds.isFinite {
            if seconds < 0 { return .infinite }
            do {
                let duration = try Duration(parsing: text + "s")
                if duration <= Limits.simulatedTime { return .interval(duration) }
            } catch .outOfRange {
                self.error("the staleness \(text) s is finer than a microsecond; round it to whole microseconds "
                    + "(0.000001 is the finest), or write 0 to always re-read.", at: node)
                return nil
            } catch {}
        } else if let text = node.scalar, !node.isNull, let duration = try? Duration(parsing: text), duration <= Limits.simulatedTime {
            return .interval(duration)
        }
        self.error("expected staleness in seconds, like -1 (never expire), 0 (always re-read) or 2.5, or a "
            + "duration like 500ms (at most \(Limits.simulatedTime)), but found \(node.shortDescription).", at: node)
        return nil
    }

    func positiveDuration(_ node: YAMLNode, _ what: String) -> Duration? {
        guard let duration = self.duration(node, what) else { return nil }
        guard duration > .zero else {
            self.error("\(what) must be longer than 0; write a duration like 100ms.", at: node)
            return nil
        }
        return duration
    }

    /// `none`, or the name to write as the transaction author.
    func author(_ node: YAMLNode) -> TransactionAuthor? {
        guard let name = self.string(node, "an author name, or none") else { return nil }
        if name == "none" { return TransactionAuthor.none }
        return .named(name)
    }

    /// A list of entities of the model: the changes a history merge keeps.
    func historyEntities(_ node: YAMLNode, of model: ModelDescription?) -> [String]? {
        guard let names = self.scalarList(node, "history-entities") else { return nil }
        if names.isEmpty {
            self.error("history-entities: [] would merge no change at all; list the entities to merge, like [Note], "
                + "or leave the setting out to merge every entity.", at: node)
            return nil
        }
        let known = model?.entities.map(\.name) ?? []
        for (name, at) in names where model != nil && !known.contains(name) {
            self.error("history-entities names '\(name)', which is no entity of the model" + Suggestion.hint(for: name, in: known), at: at)
        }
        return names.map(\.0)
    }

    /// A list of kinds of change (`[insert, delete]`): the changes a history merge keeps.
    func historyChangeTypes(_ node: YAMLNode) -> [ChangeOperation]? {
        guard let names = self.scalarList(node, "history-change-types", allowingSingle: true) else { return nil }
        if names.isEmpty {
            self.error("history-change-types: [] would merge no change at all; list the kinds to merge, like [insert, delete], "
                + "or leave the setting out to merge every change.", at: node)
            return nil
        }
        var kinds: [ChangeOperation] = []
        for (_, at) in names {
            guard let kind = self.keyword(at, ChangeOperation.self, "change type") else { continue }
            if kinds.contains(kind) {
                self.error("history-change-types names \(kind.rawValue) twice.", at: at)
            } else {
                kinds.append(kind)
            }
        }
        return kinds.count == names.count ? kinds : nil
    }

    /// `none`, `consumed-by-all`, `own-token` or `{ older-than: 7d }`.
    func purgePolicy(_ node: YAMLNode, _ what: String) -> PurgePolicy? {
        let spellings = ["none", "consumed-by-all", "own-token", "older-than"]
        if let text = node.scalar, !node.isNull {
            switch text {
            case "none": return PurgePolicy.none
            case "consumed-by-all": return .consumedByAll
            case "own-token": return .ownToken
            case "older-than":
                self.error("older-than needs a duration; write it as { older-than: 7d }.", at: node)
            default:
                self.error("unknown \(what) policy '\(text)'" + Suggestion.hint(for: text, in: spellings), at: node)
            }
            return nil
        }
        guard let map = MappingReader(node, "a purge policy like { older-than: 7d }", self) else { return nil }
        map.rejectUnknownKeys(["older-than"], in: "the purge policy")
        guard let duration = map.required("older-than", in: "the purge policy", example: "{ older-than: 7d }")
            .flatMap({ self.duration($0, "older-than", limit: Limits.simulatedTime) }) else { return nil }
        return .olderThan(duration)
    }

    /// `none`, `transfer`, `{ transfer: { latency: 2s } }` or `{ transfer: true, latency: 2s }`.
    func sync(_ node: YAMLNode, of model: ModelDescription?) -> SyncMode? {
        if model?.hasInheritance == true, node.scalar != "none" {
            self.error("sync of a store whose model has sub-entities is not supported yet.", at: node)
            return nil
        }
        if let text = node.scalar, !node.isNull {
            switch text {
            case "none": return SyncMode.none
            case "transfer": return .transfer(latency: .zero)
            default:
                self.error("unknown sync '\(text)'" + Suggestion.hint(for: text, in: ["none", "transfer"]), at: node)
                return nil
            }
        }
        guard let map = MappingReader(node, "sync (none, transfer, or { transfer: { latency: 2s } })", self)
        else { return nil }
        map.rejectUnknownKeys(["transfer", "latency"], in: "sync")
        guard let transfer = map.required("transfer", in: "sync", example: "{ transfer: { latency: 2s } }") else {
            return nil
        }
        var latency = map["latency"].flatMap { self.duration($0, "the sync latency") }
        if transfer.pairs != nil {
            guard let inner = MappingReader(transfer, "the transfer settings", self) else { return nil }
            inner.rejectUnknownKeys(["latency"], in: "the transfer settings")
            if map["latency"] != nil, let node = inner.keyNode("latency") {
                self.error("the sync latency is given twice; keep only one.", at: node)
            }
            latency = inner["latency"].flatMap { self.duration($0, "the sync latency") } ?? latency
        } else if self.bool(transfer, "transfer") == false {
            self.error("transfer: false turns sync off; write sync: none instead.", at: transfer)
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
    func contexts(_ node: YAMLNode) -> [ContextDeclaration]? {
        guard let map = MappingReader(node, "contexts (a mapping like { editor: { parent: view } })", self) else {
            return nil
        }
        var declared: [ContextDeclaration] = []
        for pair in map.pairs {
            guard let name = self.name(pair.key, "a context name like editor") else { continue }
            guard name != "view" && name != "store" else {
                self.error("'\(name)' names a parent, not a context; call the context something else (editor, importer).", at: pair.key)
                continue
            }
            guard let settings = MappingReader(pair.value, "the settings of context '\(name)' (like { parent: view })", self)
            else { continue }
            settings.rejectUnknownKeys(["parent", "automatically-merges", "author", "merge-policy", "staleness"], in: "context '\(name)'")
            var declaration = ContextDeclaration(name: name)
            if let merges = settings["automatically-merges"] {
                declaration.automaticallyMerges = self.bool(merges, "automatically-merges") ?? false
            }
            // The context's own `transactionAuthor`, `mergePolicy` and `stalenessInterval`.
            if let node = settings["author"] { declaration.author = author(node) }
            if let node = settings["merge-policy"] { declaration.mergePolicy = self.keyword(node, MergePolicy.self, "merge policy") }
            if let node = settings["staleness"] { declaration.staleness = staleness(node) }
            if let parentNode = settings["parent"], let parent = self.name(parentNode, "a parent (store, view or a context declared above)") {
                switch parent {
                case "store": declaration.parent = .store
                case "view": declaration.parent = .view
                case name:
                    self.error("context '\(name)' cannot be its own parent.", at: parentNode)
                default:
                    if declared.contains(where: { $0.name == parent }) {
                        declaration.parent = .context(parent)
                        if depth(of: declaration, in: declared) > Limits.contextDepth {
                            self.error("context '\(name)' nests more than \(Limits.contextDepth) contexts deep; "
                                + "apps nest two or three.", at: parentNode)
                        }
                    } else {
                        let known = ["store", "view"] + declared.map(\.name)
                        self.error("context '\(name)' names parent '\(parent)', which is neither store, view nor a context declared above it"
                            + Suggestion.hint(for: parent, in: known), at: parentNode)
                    }
                }
            }
            declared.append(declaration)
        }
        return declared
    }

    /// `never`, `{ after: 15m }` or `{ at-end: 1h }`: a duration above zero on the simulated clock.
    func timelinePolicy(_ node: YAMLNode) -> TimelinePolicy? {
        let expected = "never, { after: 15m } or { at-end: 1h } (when the system reloads the widget after each reload)"
        if node.scalar == "never" { return .never }
        guard let pairs = node.pairs, pairs.count == 1, let key = pairs[0].key.scalar, key == "after" || key == "at-end" else {
            self.error("expected timeline-policy: \(expected), but found \(node.shortDescription).", at: node)
            return nil
        }
        guard let duration = self.duration(pairs[0].value, "timeline-policy's \(key) (on the simulated clock)", limit: Limits.simulatedTime) else {
            return nil
        }
        guard duration.microseconds > 0 else {
            self.error("a timeline reloaded 0 after each reload would reload for ever; give a duration above zero, or never.", at: pairs[0].value)
            return nil
        }
        return key == "after" ? .after(duration) : .atEnd(duration)
    }
}
