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

    /// The settings that differ from the role's defaults, as `key: value` text, in the contract's order.
    static func settings(_ settings: ProcessSettings) -> [(String, String)] {
        let defaults = ProcessSettings(role: settings.role, framework: settings.framework)
        var pairs: [(String, String)] = []
        func add(_ key: String, _ value: String, _ changed: Bool) { if changed { pairs.append((key, value)) } }
        add("framework", settings.framework.rawValue, settings.framework != .coreData)
        add("refresh", settings.refresh.rawValue, settings.refresh != defaults.refresh)
        add("staleness", settings.staleness.description, settings.staleness != defaults.staleness)
        add("trigger", settings.trigger.rawValue, settings.trigger != defaults.trigger)
        add("poll-interval", settings.pollInterval.description, settings.pollInterval != defaults.pollInterval)
        add("observe", settings.observe.rawValue, settings.observe != defaults.observe)
        add("merge-policy", settings.mergePolicy.rawValue, settings.mergePolicy != defaults.mergePolicy)
        add("history-tracking", String(settings.historyTracking), settings.historyTracking != defaults.historyTracking)
        if let author = authorText(settings.author) { pairs.append(("author", author)) }
        if case .only(let authors) = settings.historyAuthors {
            pairs.append(("history-authors", "[" + authors.map(YAMLText.word).joined(separator: ", ") + "]"))
        }
        if let entities = settings.historyEntities {
            pairs.append(("history-entities", "[" + entities.map(YAMLText.word).joined(separator: ", ") + "]"))
        }
        if let kinds = settings.historyChangeTypes {
            pairs.append(("history-change-types", "[" + kinds.map(\.rawValue).joined(separator: ", ") + "]"))
        }
        add("purge", StepWriter.purge(settings.purge), settings.purge != defaults.purge)
        add("refetch", settings.refetch.rawValue, settings.refetch != defaults.refetch)
        add("notify", String(settings.notify), settings.notify != defaults.notify)
        add("delivery", settings.delivery.rawValue, settings.delivery != defaults.delivery)
        add("history-start", settings.historyStart.rawValue, settings.historyStart != defaults.historyStart)
        add("query-generation", settings.queryGeneration.rawValue, settings.queryGeneration != defaults.queryGeneration)
        add("busy-timeout", settings.busyTimeout.description, settings.busyTimeout != defaults.busyTimeout)
        add("write-transactions", settings.writeTransactions.rawValue,
            settings.writeTransactions != defaults.writeTransactions)
        add("model", settings.modelVersion ?? "", settings.modelVersion != nil)
        add("migrate", String(settings.migrate), settings.migrate != defaults.migrate)
        add("on-load-failure", settings.onLoadFailure.rawValue, settings.onLoadFailure != defaults.onLoadFailure)
        add("storage", settings.storage.rawValue, settings.storage != defaults.storage)
        add("read-only", String(settings.readOnly), settings.readOnly != defaults.readOnly)
        add("foreign-token", settings.foreignToken.rawValue, settings.foreignToken != defaults.foreignToken)
        add("automatically-merges", String(settings.automaticallyMerges), settings.automaticallyMerges != defaults.automaticallyMerges)
        add("delete-inaccessible-faults", String(settings.deleteInaccessibleFaults),
            settings.deleteInaccessibleFaults != defaults.deleteInaccessibleFaults)
        if !settings.contexts.isEmpty {
            pairs.append(("contexts", YAMLText.flow(settings.contexts.map { context in
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
            })))
        }
        add("reload-delay", settings.reloadDelay.description, settings.reloadDelay != defaults.reloadDelay)
        add("reload-budget", String(settings.reloadBudget), settings.reloadBudget != defaults.reloadBudget)
        if let widget = settings.widgetButton { pairs.append(("widget-button", YAMLText.word(widget))) }
        if let control = settings.control { pairs.append(("control", YAMLText.word(control))) }
        if settings.runsIn != .appIntentsExtension { pairs.append(("runs-in", settings.runsIn.rawValue)) }
        add("between-reloads", settings.betweenReloads.rawValue, settings.betweenReloads != defaults.betweenReloads)
        add("timeline-policy", settings.timelinePolicy.description, settings.timelinePolicy != defaults.timelinePolicy)
        add("on-newer-model", settings.onNewerModel.rawValue, settings.onNewerModel != defaults.onNewerModel)
        add("between-pushes", settings.betweenPushes.rawValue, settings.betweenPushes != defaults.betweenPushes)
        add("autosave", String(settings.autosave), settings.autosave != defaults.autosave)
        add("autosave-delay", settings.autosaveDelay.description, settings.autosaveDelay != defaults.autosaveDelay)
        if case .transfer(let latency) = settings.sync {
            pairs.append(("sync", YAMLText.flow([("transfer", YAMLText.flow([("latency", latency.description)]))])))
        }
        return pairs
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
