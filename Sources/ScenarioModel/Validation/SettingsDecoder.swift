import Basics

/// Decodes a process's settings, under `processes:` and in a variant's override of a process, one key at a
/// time in file order, collecting every error in the pass's `NodeDecoder`.
///
/// What it needs of the scenario pass comes in with each call (`Scope`); the names the settings use before
/// they are declared (authors, widgets, controls) go into the pass's `CrossReferences`, checked once every
/// section is read. The one thing it keeps is each process's `contexts:` as written, which a variant's
/// `contexts:` is merged into.
struct SettingsDecoder {
    /// What the scenario pass knows when a process's settings are read.
    struct Scope {
        /// The model the store is declared with; nil when the store is missing or broken.
        var model: ModelDescription?
        /// `store.models`, oldest first; empty with `store.model`.
        var modelVersions: [ModelVersion]
        /// The processes declared so far (all of them, when a variant's settings are read).
        var processes: [ProcessDeclaration]
    }

    /// The error sink and typed reads.
    let decoder: NodeDecoder
    /// Each process's `contexts:` as written: a variant's `contexts:` is merged into it, entry by entry and
    /// setting by setting (`NodeDecoder.mergedContexts`).
    private var declaredContexts: [String: YAMLNode] = [:]

    init(decoder: NodeDecoder) {
        self.decoder = decoder
    }

    /// Decodes every setting in `map` in file order; `role` is read by the caller when allowed.
    mutating func decode(_ map: MappingReader, of process: String, allowingRole: Bool, in scope: Scope,
                         references: inout CrossReferences) -> [ProcessSetting] {
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
                if key == "framework", !allowingRole, let declared = scope.processes.first(where: { $0.name == process })?.settings.framework,
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
            guard let settingKey = SettingKey(rawValue: key) else {
                let known = ProcessSetting.keys + (allowingRole ? ["role"] : [])
                decoder.error("unknown setting '\(key)' for process '\(process)'" + Suggestion.hint(for: key, in: known),
                              at: pair.key)
                continue
            }
            if key == "model", !allowingRole, scope.processes.first(where: { $0.name == process })?.role.isPerformed == true {
                decoder.refuseIntentModel(process, at: pair.key)
                continue
            }
            var node = pair.value
            if key == "contexts" {
                if allowingRole { declaredContexts[process] = node } else { node = decoder.mergedContexts(node, into: declaredContexts[process]) }
            }
            if let setting = decodeSetting(settingKey, node, in: scope, references: &references) {
                settings.append(setting)
            }
        }
        if let syncLatency { settings.append(syncLatency) }
        return settings
    }

    /// One setting's value, by its key (known to be a setting's).
    private func decodeSetting(_ key: SettingKey, _ node: YAMLNode, in scope: Scope, references: inout CrossReferences) -> ProcessSetting? {
        switch key {
        case .refresh: decoder.keyword(node, RefreshStrategy.self, "refresh strategy").map(ProcessSetting.refresh)
        case .staleness: decoder.staleness(node).map(ProcessSetting.staleness)
        case .trigger: decoder.keyword(node, RefreshTrigger.self, "trigger").map(ProcessSetting.trigger)
        case .pollInterval: decoder.positiveDuration(node, "poll-interval").map(ProcessSetting.pollInterval)
        case .observe: decoder.keyword(node, ObserveTiming.self, "observe timing").map(ProcessSetting.observe)
        case .mergePolicy: decoder.keyword(node, MergePolicy.self, "merge policy").map(ProcessSetting.mergePolicy)
        case .historyTracking: decoder.bool(node, "history-tracking").map(ProcessSetting.historyTracking)
        case .author:
            decoder.author(node).map { author in
                if case .named(let name) = author { references.declaredAuthors.insert(name) }
                return ProcessSetting.author(author)
            }
        case .historyAuthors: historyAuthors(node, references: &references).map(ProcessSetting.historyAuthors)
        case .historyEntities: decoder.historyEntities(node, of: scope.model).map(ProcessSetting.historyEntities)
        case .historyChangeTypes: decoder.historyChangeTypes(node).map(ProcessSetting.historyChangeTypes)
        case .historyStart: decoder.keyword(node, HistoryStart.self, "history start").map(ProcessSetting.historyStart)
        case .purge: decoder.purgePolicy(node, "purge").map(ProcessSetting.purge)
        case .refetch: decoder.keyword(node, RefetchMode.self, "refetch mode").map(ProcessSetting.refetch)
        case .notify: decoder.bool(node, "notify").map(ProcessSetting.notify)
        case .delivery: decoder.keyword(node, DeliveryPolicy.self, "delivery").map(ProcessSetting.delivery)
        case .queryGeneration:
            decoder.keyword(node, QueryGeneration.self, "query generation").map(ProcessSetting.queryGeneration)
        case .busyTimeout: decoder.duration(node, "busy-timeout").map(ProcessSetting.busyTimeout)
        case .storage: decoder.keyword(node, StorageLocation.self, "storage").map(ProcessSetting.storage)
        case .sync: decoder.sync(node, of: scope.model).map(ProcessSetting.sync)
        case .readOnly: decoder.bool(node, "read-only").map(ProcessSetting.readOnly)
        case .foreignToken: decoder.keyword(node, ForeignToken.self, "foreign-token").map(ProcessSetting.foreignToken)
        case .writeTransactions:
            decoder.keyword(node, WriteTransactions.self, "write-transactions").map(ProcessSetting.writeTransactions)
        case .model: decoder.modelVersionName(node, versions: scope.modelVersions.map(\.name)).map(ProcessSetting.modelVersion)
        case .migrate: decoder.bool(node, "migrate").map(ProcessSetting.migrate)
        case .onLoadFailure: decoder.keyword(node, LoadFailure.self, "on-load-failure").map(ProcessSetting.onLoadFailure)
        case .automaticallyMerges: decoder.bool(node, "automatically-merges").map(ProcessSetting.automaticallyMerges)
        case .contexts:
            decoder.contexts(node).map { contexts in
                for case .named(let name)? in contexts.map(\.author) { references.declaredAuthors.insert(name) }
                return ProcessSetting.contexts(contexts)
            }
        case .deleteInaccessibleFaults:
            decoder.bool(node, "delete-inaccessible-faults").map(ProcessSetting.deleteInaccessibleFaults)
        case .reloadDelay:
            decoder.duration(node, "reload-delay (on the simulated clock)", limit: Limits.simulatedTime).map(ProcessSetting.reloadDelay)
        case .reloadBudget: decoder.int(node, "reload-budget (reloads per simulated day)", in: 0...Limits.objects).map(ProcessSetting.reloadBudget)
        case .betweenReloads: decoder.keyword(node, BetweenWork.self, "between-reloads").map(ProcessSetting.betweenReloads)
        case .onNewerModel: decoder.keyword(node, OnNewerModel.self, "on-newer-model").map(ProcessSetting.onNewerModel)
        case .timelinePolicy: decoder.timelinePolicy(node).map(ProcessSetting.timelinePolicy)
        case .betweenPushes: decoder.keyword(node, BetweenWork.self, "between-pushes").map(ProcessSetting.betweenPushes)
        case .autosave: decoder.bool(node, "autosave").map(ProcessSetting.autosave)
        case .autosaveDelay:
            decoder.duration(node, "autosave-delay (on the simulated clock)", limit: Limits.simulatedTime).map(ProcessSetting.autosaveDelay)
        case .runsIn:
            decoder.keyword(node, IntentTarget.self, "intent target (where its code is built)").map { target in
                if target == .app { references.appIntents.append(node) }
                return ProcessSetting.runsIn(target)
            }
        case .widgetButton:
            decoder.name(node, "the name of the widget whose button runs the intent, or none").map { name in
                guard name != "none" else { return ProcessSetting.widgetButton(nil) }
                references.widgetButtons.append((name, node))
                return ProcessSetting.widgetButton(name)
            }
        case .control:
            decoder.name(node, "the name of the control whose tap runs the intent, or none").map { name in
                guard name != "none" else { return ProcessSetting.control(nil) }
                references.controls.append((name, node))
                return ProcessSetting.control(name)
            }
        // Read with the role, before the settings (`ProcessDeclaration.framework`).
        case .framework: nil
        }
    }

    /// `all-but-own`, or a list of author names.
    private func historyAuthors(_ node: YAMLNode, references: inout CrossReferences) -> HistoryAuthors? {
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
}
