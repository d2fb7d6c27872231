import Basics

/// Steps as a scenario file writes them, so that the loader reads back the same steps. Used for the
/// counterexamples `explore` writes: explicit steps only (a `parallel` with its children, no `workload`).
public enum StepWriter {
    /// Why a step cannot be written as one explicit line.
    public struct Unwritable: Error, CustomStringConvertible {
        public var description: String
    }

    /// `- app: { insert: Note, id: n1, set: { title: "A" } }`, without the dash.
    public static func line(_ step: ScenarioStep) throws(Unwritable) -> String {
        let body = try body(step)
        guard let process = step.process else { return "\(step.step.keyword): \(body)" }
        return "\(YAMLText.word(process)): \(body)"
    }

    /// A step of a process's work (`on-reload:`, `on-push:`), written without the process, as the work
    /// takes it: `{ count: Note, expect: [3, 2], now: true }`.
    static func workItem(_ step: ScenarioStep) throws(Unwritable) -> String {
        var body = try body(step)
        if let values = step.perReload, case .count(_, let first, _, _) = step.step {
            body = body.replacingOccurrences(of: "expect: \(first)", with: "expect: [\(values.map(String.init).joined(separator: ", "))]")
        }
        return body
    }

    /// The action with its `expect-error:` and `context:`.
    private static func body(_ step: ScenarioStep) throws(Unwritable) -> String {
        var body = try action(step.step)
        if let error = step.expectError {
            // An action with no argument takes `true` once it has other keys.
            if !body.hasPrefix("{") { body = "{ \(body): true }" }
            body = String(body.dropLast(2)) + ", expect-error: \(error.rawValue) }"
        }
        if let context = step.context {
            if !body.hasPrefix("{") { body = "{ \(body): true }" }
            body = String(body.dropLast(2)) + ", context: \(YAMLText.word(context)) }"
        }
        return body
    }

    /// The action: a bare word (`save`) or a flow mapping.
    static func action(_ step: Step) throws(Unwritable) -> String {
        typealias Y = YAMLText
        switch step {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver,
             .save, .rollback, .reset, .refreshAll, .runRefresh, .unpinGeneration, .beginWrite, .endWrite,
             .mergeHistory, .checkpoint, .sync, .leech, .push(nil):
            return step.keyword
        case .push(_?):
            // Its work is the process's on-push: with the payload in place, which a file keeps only as the template.
            throw Unwritable(description: "a push with a payload is the system's; the steps its work ran are written instead")
        case .reloadTimelines(nil): return "{ reload-timelines: true }"
        case .reloadTimelines(let widget?): return Y.flow([("reload-timelines", Y.word(widget))])
        case .reloadControls(nil): return "{ reload-controls: true }"
        case .reloadControls(let control?): return Y.flow([("reload-controls", Y.word(control))])
        case .reload:
            throw Unwritable(description: "a widget's reload is the system's; its steps are written instead")
        case .autosave:
            // What the autosave did is a save; the plan of the written file places its own autosaves too.
            return "save"
        case .pinGeneration(let source): return Y.flow([("pin-generation", Y.word(source ?? "current"))])
        case .purgeHistory(nil, nil): return "purge-history"
        case .purgeHistory(let policy, let expected):
            return Y.flow([("purge-history", policy.map(purge) ?? "true")]
                + (expected.map { [("expect", Y.flow([("deleted", String($0))]))] } ?? []))
        case .insert(let entity, let id, let values):
            return Y.flow([("insert", Y.word(entity)), ("id", Y.word(id))] + (values.isEmpty ? [] : [("set", Y.values(values))]))
        case .update(let id, let values): return Y.flow([("update", Y.word(id)), ("set", Y.values(values))])
        case .delete(let id): return Y.flow([("delete", Y.word(id))])
        case .toggle(let id, let property, let reads):
            return Y.flow([("toggle", Y.word(id)), ("property", Y.word(property)), ("reads", reads.rawValue)])
        case .relate(let id, let to, let via, let at):
            return Y.flow([("relate", Y.word(id)), ("to", Y.word(to)), ("via", Y.word(via))] + (at.map { [("at", String($0))] } ?? []))
        case .unrelate(let id, let from, let via):
            return Y.flow([("unrelate", Y.word(id)), ("from", Y.word(from)), ("via", Y.word(via))])
        case .fetch(let entity, let predicate, let sort, let options):
            var pairs = [("fetch", Y.word(entity))]
            if let predicate { pairs.append(("where", Y.quoted(predicate.description))) }
            if !sort.isEmpty { pairs.append(("sort", Y.quoted(sort.map(\.description).joined(separator: ", ")))) }
            if let limit = options.limit { pairs.append(("limit", String(limit))) }
            if !options.includesPendingChanges { pairs.append(("includes-pending-changes", "false")) }
            if !options.returnsObjectsAsFaults { pairs.append(("returns-objects-as-faults", "false")) }
            if options.refreshesRefetchedObjects { pairs.append(("refreshes-refetched-objects", "true")) }
            if !options.prefetch.isEmpty { pairs.append(("prefetch", "[" + options.prefetch.map(Y.word).joined(separator: ", ") + "]")) }
            if let controller = options.controller { pairs.append(("controller", Y.word(controller))) }
            if let sections = options.sections { pairs.append(("sections", Y.word(sections))) }
            return Y.flow(pairs)
        case .refresh(let id, let merge): return Y.flow([("refresh", Y.word(id)), ("merge", merge ? "true" : "false")])
        case .batchInsert(let entity, let count, let values):
            return Y.flow([("batch-insert", Y.word(entity)), ("count", String(count))] + (values.isEmpty ? [] : [("set", Y.values(values))]))
        case .batchUpdate(let entity, let predicate, let values):
            return Y.flow([("batch-update", Y.word(entity))] + (predicate.map { [("where", Y.quoted($0.description))] } ?? [])
                + [("set", Y.values(values))])
        case .batchDelete(let entity, let predicate):
            return Y.flow([("batch-delete", Y.word(entity))] + (predicate.map { [("where", Y.quoted($0.description))] } ?? []))
        case .post(let name): return Y.flow([("post", Y.word(name))])
        case .copyStore(let name, let withWAL): return Y.flow([("copy-store", Y.word(name)), ("with-wal", withWAL ? "true" : "false")])
        case .openCopy(let name): return Y.flow([("open-copy", Y.word(name))])
        case .read(let id, let expectation, let timing):
            var pairs = [("read", Y.word(id))]
            switch expectation {
            case .values(let values, let related)?:
                let relatedPairs = related.keys.sorted().map { ($0, "[" + related[$0]!.map(Y.word).joined(separator: ", ") + "]") }
                pairs.append(("expect", relatedPairs.isEmpty ? Y.values(values) : Y.flow(values.keys.sorted().map { (Y.word($0), Y.value(values[$0]!)) } + relatedPairs)))
            case .absent?: pairs.append(("expect", "absent"))
            case nil: break
            }
            return Y.flow(pairs + [self.timing(timing)])
        case .count(let entity, let expected, let predicate, let timing):
            return Y.flow([("count", Y.word(entity))] + (predicate.map { [("where", Y.quoted($0.description))] } ?? [])
                + [("expect", String(expected)), self.timing(timing)])
        case .results(let controller, let expectation, let timing):
            var pairs = [("results", Y.word(controller))]
            if let objects = expectation.objects { pairs.append(("expect", "[" + objects.map(Y.word).joined(separator: ", ") + "]")) }
            if let sections = expectation.sections {
                pairs.append(("expect", Y.flow(sections.map { (Y.word($0.name), "[" + $0.objects.map(Y.word).joined(separator: ", ") + "]") })))
            }
            if let changes = expectation.changes { pairs.append(("changes", String(changes))) }
            return Y.flow(pairs + [self.timing(timing)])
        case .state(let id, let expectation, let timing):
            let flags = [("fault", expectation.fault), ("deleted", expectation.deleted), ("registered", expectation.registered)]
                .compactMap { key, flag in flag.map { (key, $0 ? "true" : "false") } }
            return Y.flow([("state", Y.word(id)), ("expect", Y.flow(flags)), self.timing(timing)])
        case .sleep(let duration): return duration.description
        case .restoreStore(let name): return Y.word(name)
        case .appUpdate(let version): return Y.word(version)
        case .advanceClock(let duration): return Y.flow([("advance", duration.description)])
        case .fault(let fault):
            switch fault {
            case .dropNotifications(let process, let duration):
                return Y.flow([("drop-notifications", Y.word(process)), ("for", duration.description)])
            case .delayNotifications(let process, let delay):
                return Y.flow([("delay-notifications", Y.word(process)), ("by", delay.description)])
            case .crash(let process, let point):
                return Y.flow([("crash", Y.word(process)), ("during", point.rawValue)])
            case .holdNotifications(let process):
                return Y.flow([("hold-notifications", Y.word(process))])
            }
        case .parallel(let children):
            // A sequence child is a nested list of its steps.
            func flow(_ steps: [ScenarioStep]) throws(Unwritable) -> String {
                var written: [String] = []
                for child in steps {
                    if case .sequence(let inner) = child.step { written.append(try flow(inner)) } else { written.append("{ " + (try line(child)) + " }") }
                }
                return "[" + written.joined(separator: ", ") + "]"
            }
            return try flow(children)
        case .sequence:
            throw Unwritable(description: "a sequence is written inside its parallel step, as a nested list")
        case .workload:
            throw Unwritable(description: "a workload is not one explicit step; write its operations out")
        }
    }

    private static func timing(_ timing: CheckTiming) -> (String, String) {
        switch timing {
        case .now: ("now", "true")
        case .within(let duration): ("within", duration.description)
        }
    }

    static func purge(_ policy: PurgePolicy) -> String {
        switch policy {
        case .none: "none"
        case .consumedByAll: "consumed-by-all"
        case .ownToken: "own-token"
        case .olderThan(let age): YAMLText.flow([("older-than", age.description)])
        }
    }
}
