import Basics

/// Whether a step fits the process that takes it: its role (a push needs a notification service
/// extension), its framework (SwiftData has no `refreshAllObjects()`) and the contexts it declares
/// (`context:`). Each check reports through `decoder` and keeps no state.
struct StepFit {
    let decoder: NodeDecoder
    /// The declared processes.
    let processes: [ProcessDeclaration]

    /// `context: bg`: the process's background context the action runs through (an object action, a
    /// save, a fetch, a check, a refresh); nil for its view context.
    func context(_ node: YAMLNode, step: Step, process: String) -> String? {
        guard let pair = node.pairs?.first(where: { $0.key.scalar == "context" }) else { return nil }
        guard let name = decoder.name(pair.value, "a context name like bg") else { return nil }
        // `view` and `store` name parents in `contexts:`, not contexts a step can run through.
        if name == "view" {
            decoder.error("a step runs through the view context when it names no context; remove context: view.", at: pair.value)
            return nil
        }
        if name == "store" {
            decoder.error("'store' names no context (it is the parent of a background context in contexts:); name a "
                + "context, like context: importer, or remove context:.", at: pair.value)
            return nil
        }
        let role = processes.first { $0.name == process }?.role
        if ActionWord(step)?.actsOnProcess == true {
            decoder.error("\(step.keyword) acts on the process, not on one of its contexts; remove context:.", at: pair.key)
            return nil
        }
        if role?.isPerformed == true {
            decoder.error("an App Intent's steps already run through a context of its own; remove context:.", at: pair.key)
            return nil
        }
        if step.keyword == "pin-generation" || step.keyword == "unpin-generation", isChildContext(name, of: process) {
            decoder.error("\(name) is a child context: it reads through its parent and has no query generation of its "
                + "own; \(step.keyword == "pin-generation" ? "pin" : "unpin") its parent.", at: pair.value)
            return nil
        }
        if case .pinGeneration(let source?) = step, source == name {
            decoder.error("a context already shares its own query generation; pin it from another context, or write "
                + "pin-generation: current.", at: pair.value)
            return nil
        }
        return name
    }

    /// Whether `name` is declared in `process`'s `contexts:` as a child (of the view or of another context).
    func isChildContext(_ name: String, of process: String) -> Bool {
        let declaration = processes.first { $0.name == process }?.settings.contexts.first { $0.name == name }
        guard let parent = declaration?.parent else { return false }
        return parent != .store
    }

    /// Refuses, on a SwiftData process, the steps that call Core Data APIs SwiftData does not expose:
    /// `refreshAllObjects()`, `refresh(_:mergeChanges:)`, query generations, a history merge into a
    /// context, and the fetch options `FetchDescriptor` lacks.
    func checkFramework(of step: Step, process: String, at node: YAMLNode) {
        guard processes.first(where: { $0.name == process })?.settings.framework == .swiftData else { return }
        let api: String? = switch step {
        case .refreshAll: "refreshAllObjects()"
        case .refresh: "refresh(_:mergeChanges:)"
        case .pinGeneration, .unpinGeneration: "query generations"
        case .mergeHistory: "merging history into a context (mergeChanges(fromContextDidSave:))"
        case .fetch(_, _, _, let options) where options.refreshesRefetchedObjects:
            "shouldRefreshRefetchedObjects (refreshes-refetched-objects)"
        case .fetch(_, _, _, let options) where !options.returnsObjectsAsFaults:
            "returnsObjectsAsFaults (returns-objects-as-faults)"
        default: nil
        }
        guard let api else { return }
        decoder.error("\(step.keyword) needs Core Data's \(api), which SwiftData does not have, and '\(process)' uses "
            + "SwiftData; remove it, or catch up with refresh: new-context or history (run-refresh).", at: node)
    }

    /// `push` needs a notification service extension; `reload-timelines` a widget; an App Intent's steps
    /// no lifecycle change.
    func checkRole(of step: Step, process: String, at node: YAMLNode) {
        let reloaded = Set(processes.compactMap { $0.role.traits.launch.reload })
        switch step {
        case .push where self.processes.first(where: { $0.name == process }).map({ $0.role.traits.launch != .pushes }) == true:
            decoder.error("push launches a notification service extension, and '\(process)' is not one; push to a process "
                + "with role: notification-service.", at: node)
        case _ where ActionWord(step).map({ $0.isSystem && !$0.isReload }) == true
            && processes.first(where: { $0.name == process })?.role.isPerformed == true:
            decoder.error("\(step.keyword) cannot be a step of '\(process)': an App Intent runs in the process the system picks "
                + "(the host's, a widget's or its own), which starts and ends it.", at: node)
        case .reloadTimelines(nil) where !reloaded.contains(.timelines):
            decoder.error("reload-timelines reloads widgets, and no process has role: widget; declare one.", at: node)
        case .reloadControls(nil) where !reloaded.contains(.controls):
            decoder.error("reload-controls reloads controls, and no process has role: control; declare one.", at: node)
        default:
            break
        }
    }

    /// A process with steps in a sequence has them in no other child of the same `parallel`: which branch
    /// goes first is the schedule's choice, so its lifecycle and its steps' order would be too (a launch in
    /// each branch fails in one order only). An App Intent built into the app (`runs-in: app`) involves the
    /// app too: the system resumes or launches it for the intent's step.
    func checkSequenceProcesses(_ children: [ScenarioStep]) {
        guard children.contains(where: { if case .sequence = $0.step { true } else { false } }) else { return }
        let host = processes.first { $0.settings.role == .host }?.name
        let appIntents = Set(processes.filter { $0.settings.role == .intent && $0.settings.runsIn == .app }.map(\.name))
        var seen: [String: Bool] = [:]  // process -> whether a sequence named it
        for child in children {
            let isSequence = if case .sequence = child.step { true } else { false }
            var involved = child.processesInvolved
            if let host, !involved.isDisjoint(with: appIntents) { involved.insert(host) }
            for process in involved.sorted() {
                if let earlier = seen[process], earlier || isSequence {
                    decoder.error("'\(process)' has steps in two children of this parallel, one of them a sequence: which goes "
                        + "first is the schedule's choice; put \(process)'s steps in one list.", line: child.location.line,
                        column: child.location.column)
                    return
                }
                seen[process] = isSequence
            }
        }
    }
}
