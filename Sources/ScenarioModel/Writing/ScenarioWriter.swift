import Basics
import Foundation
import SharedStore
import Yams

/// Writes a scenario file the loader reads back: the store section of an existing file, the resolved
/// settings of one run's processes, explicit steps and an expectation. What `explore` writes its
/// counterexamples with.
public enum ScenarioWriter {
    /// A whole file.
    ///
    /// - Parameters:
    ///   - comment: lines written first, as `#` comments (how the file was found).
    ///   - storeSource: the YAML text of the file whose `store:` section is copied.
    ///   - processes: each process with its settings, written as the settings that differ from its role's defaults.
    public static func file(
        name: String, summary: String, comment: [String], storeSource: String, processes: [RunProcess],
        steps: [ScenarioStep], expectation: Expectation, seed: UInt64, staleTolerance: Duration = Scenario.defaultStaleTolerance,
        growthLimits: GrowthLimits? = nil, storeFrom: StoreSeed? = nil, schedule: ScheduleSource = .seeded
    ) throws -> String {
        var lines = comment.map { "# " + YAMLText.comment($0) }
        lines.append("name: \(YAMLText.word(name))")
        lines.append("summary: \(YAMLText.quoted(summary))")
        lines.append("seed: \(seed)")
        if schedule != .seeded { lines.append("schedule: \(schedule.rawValue)") }
        switch expectation {
        case .pass: lines.append("expect: pass")
        case .anomalies(let kinds): lines.append("expect: [\(kinds.map(\.rawValue).joined(separator: ", "))]")
        case .counts(let counts):
            // One process's counts of a kind are written together: `busy: { share: 1, app: 0 }`.
            var entries: [String] = []
            var written: Set<AnomalyKind> = []
            for count in counts where count.process == nil || written.insert(count.kind).inserted {
                guard count.process != nil else {
                    entries.append("\(count.kind.rawValue): \(count.bound)")
                    continue
                }
                let own = counts.filter { $0.kind == count.kind && $0.process != nil }
                entries.append("\(count.kind.rawValue): { " + own.map { "\(YAMLText.word($0.process!)): \($0.bound)" }.joined(separator: ", ") + " }")
            }
            lines.append("expect: { \(entries.joined(separator: ", ")) }")
        }
        if staleTolerance != Scenario.defaultStaleTolerance { lines.append("stale-tolerance: \(staleTolerance.description)") }
        if let growthLimits { lines.append("limits: \(growthLimits.text)") }
        lines.append("store:")
        lines += try storeSection(of: storeSource, droppingFrom: storeFrom != nil).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.isEmpty }.map { "  " + $0 }
        if let storeFrom {
            // The file is written elsewhere than the one it came from: the store file by its absolute path.
            let objects = storeFrom.objects.keys.sorted().map { (YAMLText.word($0), YAMLText.quoted(storeFrom.objects[$0]!.description)) }
            lines.append("  from: " + YAMLText.flow([("file", YAMLText.quoted(storeFrom.path))] + (objects.isEmpty ? [] : [("objects", YAMLText.flow(objects))])))
        }
        lines.append("processes:")
        for process in processes {
            var pairs = [("role", process.settings.role.rawValue)] + settings(process.settings)
            // What the system runs the process for (this run's steps of it: `only-in:` is already applied).
            if !process.work.isEmpty, let key = process.settings.role.traits.work {
                var items: [String] = []
                for step in process.work { items.append(try StepWriter.workItem(step)) }
                pairs.append((key, "[" + items.joined(separator: ", ") + "]"))
            }
            lines.append("  \(YAMLText.word(process.name)): \(YAMLText.flow(pairs))")
        }
        lines.append("steps:")
        for step in steps {
            lines.append("  - " + (try StepWriter.line(step)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `store:` section of a scenario file's text, as YAML (its own lines, not indented).
    static func storeSection(of source: String, droppingFrom: Bool = false) throws -> String {
        guard let root = try Yams.compose(yaml: source), case .mapping(let mapping) = root,
              let store = mapping.first(where: { $0.key.string == "store" })?.value else {
            throw StepWriter.Unwritable(description: "the scenario's file has no store: section to copy")
        }
        if droppingFrom, case .mapping(let section) = store {
            return try Yams.serialize(node: .mapping(Node.Mapping(section.filter { $0.key.string != "from" })))
        }
        return try Yams.serialize(node: store)
    }

    /// The settings that differ from the role's defaults, as `key: value` text: the framework first (what
    /// the others mean depends on it), then the rest in the contract's order.
    static func settings(_ settings: ProcessSettings) -> [(String, String)] {
        let defaults = ProcessSettings(role: settings.role, framework: settings.framework)
        let order = [SettingKey.framework] + SettingKey.allCases.filter { $0 != .framework }
        return order.compactMap { key in written(key, settings, defaults: defaults).map { (key.rawValue, $0) } }
    }

    /// The text of `key`'s value in `settings`, or nil where it is the role's default: one exhaustive switch,
    /// so a new setting is written into explore's files or the build fails.
    static func written(_ key: SettingKey, _ settings: ProcessSettings, defaults: ProcessSettings) -> String? {
        func text(_ value: String, _ changed: Bool) -> String? { changed ? value : nil }
        func list(_ words: [String]) -> String { "[" + words.joined(separator: ", ") + "]" }
        switch key {
        case .framework: return text(settings.framework.rawValue, settings.framework != .coreData)
        case .refresh: return text(settings.refresh.rawValue, settings.refresh != defaults.refresh)
        case .staleness: return text(settings.staleness.description, settings.staleness != defaults.staleness)
        case .trigger: return text(settings.trigger.rawValue, settings.trigger != defaults.trigger)
        case .pollInterval: return text(settings.pollInterval.description, settings.pollInterval != defaults.pollInterval)
        case .observe: return text(settings.observe.rawValue, settings.observe != defaults.observe)
        case .mergePolicy: return text(settings.mergePolicy.rawValue, settings.mergePolicy != defaults.mergePolicy)
        case .historyTracking:
            return text(String(settings.historyTracking), settings.historyTracking != defaults.historyTracking)
        case .author: return authorText(settings.author)
        case .historyAuthors:
            guard case .only(let authors) = settings.historyAuthors else { return nil }
            return list(authors.map(YAMLText.word))
        case .historyEntities: return settings.historyEntities.map { list($0.map(YAMLText.word)) }
        case .historyChangeTypes: return settings.historyChangeTypes.map { list($0.map(\.rawValue)) }
        case .purge: return text(StepWriter.purge(settings.purge), settings.purge != defaults.purge)
        case .refetch: return text(settings.refetch.rawValue, settings.refetch != defaults.refetch)
        case .notify: return text(String(settings.notify), settings.notify != defaults.notify)
        case .delivery: return text(settings.delivery.rawValue, settings.delivery != defaults.delivery)
        case .historyStart: return text(settings.historyStart.rawValue, settings.historyStart != defaults.historyStart)
        case .queryGeneration:
            return text(settings.queryGeneration.rawValue, settings.queryGeneration != defaults.queryGeneration)
        case .busyTimeout: return text(settings.busyTimeout.description, settings.busyTimeout != defaults.busyTimeout)
        case .writeTransactions:
            return text(settings.writeTransactions.rawValue, settings.writeTransactions != defaults.writeTransactions)
        case .model: return settings.modelVersion
        case .migrate: return text(String(settings.migrate), settings.migrate != defaults.migrate)
        case .onLoadFailure: return text(settings.onLoadFailure.rawValue, settings.onLoadFailure != defaults.onLoadFailure)
        case .storage: return text(settings.storage.rawValue, settings.storage != defaults.storage)
        case .readOnly: return text(String(settings.readOnly), settings.readOnly != defaults.readOnly)
        case .foreignToken: return text(settings.foreignToken.rawValue, settings.foreignToken != defaults.foreignToken)
        case .automaticallyMerges:
            return text(String(settings.automaticallyMerges), settings.automaticallyMerges != defaults.automaticallyMerges)
        case .deleteInaccessibleFaults:
            return text(String(settings.deleteInaccessibleFaults), settings.deleteInaccessibleFaults != defaults.deleteInaccessibleFaults)
        case .contexts:
            guard !settings.contexts.isEmpty else { return nil }
            return YAMLText.flow(settings.contexts.map { context in
                var fields: [(String, String)] = []
                switch context.parent {
                case .store: break
                case .view: fields.append(("parent", "view"))
                case .context(let name): fields.append(("parent", YAMLText.word(name)))
                }
                if context.automaticallyMerges { fields.append(("automatically-merges", "true")) }
                if let author = context.author.flatMap(authorText) { fields.append(("author", author)) }
                if let policy = context.mergePolicy { fields.append(("merge-policy", policy.rawValue)) }
                if let staleness = context.staleness { fields.append(("staleness", staleness.description)) }
                return (YAMLText.word(context.name), YAMLText.flow(fields))
            })
        case .reloadDelay: return text(settings.reloadDelay.description, settings.reloadDelay != defaults.reloadDelay)
        case .reloadBudget: return text(String(settings.reloadBudget), settings.reloadBudget != defaults.reloadBudget)
        case .widgetButton: return settings.widgetButton.map(YAMLText.word)
        case .control: return settings.control.map(YAMLText.word)
        case .runsIn: return text(settings.runsIn.rawValue, settings.runsIn != .appIntentsExtension)
        case .betweenReloads: return text(settings.betweenReloads.rawValue, settings.betweenReloads != defaults.betweenReloads)
        case .timelinePolicy: return text(settings.timelinePolicy.description, settings.timelinePolicy != defaults.timelinePolicy)
        case .onNewerModel: return text(settings.onNewerModel.rawValue, settings.onNewerModel != defaults.onNewerModel)
        case .betweenPushes: return text(settings.betweenPushes.rawValue, settings.betweenPushes != defaults.betweenPushes)
        case .autosave: return text(String(settings.autosave), settings.autosave != defaults.autosave)
        case .autosaveDelay: return text(settings.autosaveDelay.description, settings.autosaveDelay != defaults.autosaveDelay)
        case .sync:
            guard case .transfer(let latency) = settings.sync else { return nil }
            return YAMLText.flow([("transfer", YAMLText.flow([("latency", latency.description)]))])
        }
    }

    /// An `author:` value as the file writes it; nil for the default (the process's name).
    static func authorText(_ author: TransactionAuthor) -> String? {
        switch author {
        case .processName: nil
        case .named(let name): YAMLText.word(name)
        case .none: "none"
        }
    }
}
