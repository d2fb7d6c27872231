import Basics

/// The steps of each run walked through the lifecycle state machine the runner uses (`ProcessLifecycle`):
/// a step the runner could not carry out (an action of a process that is not running or is suspended,
/// `resume` of one that is not suspended, `launch` of one already running) is refused when the file is
/// validated, at its line, naming the process's state, rather than ending the run as a harness error.
///
/// What the steps alone do not decide is left to the run: a process whose store may fail to load (model
/// versions, `read-only`, `on-load-failure`), a widget once a reload may have run it (the system runs it,
/// at reloads the run plans; before any step that may bring one, it is not running), an
/// App Intent (it runs in whatever process the system picks), and a process a crash fault may kill in a
/// workload. Those are never refused here.
enum LifecycleCheck {
    /// A step the runner could not carry out.
    struct Problem: Hashable {
        var location: SourceLocation
        var message: String
    }

    /// The problems of every run of `scenario`; each names the variants it happens in when not all.
    static func problems(in scenario: Scenario) -> [Problem] {
        let runs = scenario.runs()
        var byProblem: [Problem: [String]] = [:]
        var order: [Problem] = []
        for run in runs {
            var walk = Walk(scenario: scenario, run: run)
            for step in run.steps { walk.visit(step) }
            for problem in walk.problems {
                if byProblem[problem] == nil { order.append(problem) }
                byProblem[problem, default: []].append(run.variant)
            }
        }
        return order.map { problem in
            let variants = byProblem[problem] ?? []
            var named = problem
            if !scenario.variants.isEmpty, variants.count < runs.count {
                named.message += " (in variant\(variants.count == 1 ? "" : "s") \(Suggestion.list(variants)))"
            }
            named.message += "."
            return named
        }
    }

    /// One run's walk.
    private struct Walk {
        var lifecycles: [String: ProcessLifecycle] = [:]
        /// Processes whose state the steps do not decide.
        var unknown: Set<String> = []
        /// Widgets no reload can have run yet: not running for certain, until a step that may make the
        /// system reload one (a `reload-timelines`, an App Intent's step, time passing for a timeline
        /// policy or a reload delay), after which the run decides (`unknown`).
        var unreloaded: Set<String> = []
        /// Where each process last stopped running, for the message.
        var stoppedAt: [String: (SourceLocation, String)] = [:]
        /// Processes a `crash ... during: save` fault will kill at their next save.
        var crashArmed: Set<String> = []
        /// Processes whose store may fail to load: once launched, whether they run is the run's to say
        /// (`unknown`), until an exit, crash or terminate stops them for certain.
        var mayFailToLoad: Set<String> = []
        var problems: [Problem] = []
        /// Each process's role, and the processes in file order (the order the runner looks for a host in).
        var roles: [String: ProcessRole] = [:]
        /// The notification service extensions the system suspends after a push rather than ends.
        var keptAfterPush: Set<String> = []
        var order: [String] = []
        /// Each App Intent's unsaved work: the host whose process it runs in, and where it began.
        var intentWork: [String: (host: String, location: SourceLocation)] = [:]
        /// App Intents built into the app (`runs-in: app`): the system resumes or launches the app for each step.
        var appIntents: Set<String> = []
        /// The control whose tap runs each App Intent that names one (`control:`).
        var controlOf: [String: String] = [:]
        /// Where each process's store is: the group's, which a `restore-store` replaces, or its own.
        var storage: [String: StorageLocation] = [:]

        init(scenario: Scenario, run: ScenarioRun) {
            for process in run.processes {
                roles[process.name] = process.settings.role
                storage[process.name] = process.settings.storage
                order.append(process.name)
                if process.settings.betweenPushes == .suspend { keptAfterPush.insert(process.name) }
                lifecycles[process.name] = ProcessLifecycle(process: process.name, role: process.settings.role)
                let settings = process.settings
                let mayFailToLoad = run.storeMayFailToLoad(for: process)
                // The system starts widgets and intents; a process whose store may not load is decided only
                // until its launch (before it, it is certainly not running).
                if settings.role.isRenderedBySystem { unreloaded.insert(process.name) }
                if settings.role.isPerformed { unknown.insert(process.name) }
                if settings.role.isPerformed, settings.runsIn == .app { appIntents.insert(process.name) }
                if settings.role.isPerformed, let control = settings.control { controlOf[process.name] = control }
                if mayFailToLoad { self.mayFailToLoad.insert(process.name) }
            }
        }

        mutating func visit(_ step: ScenarioStep) {
            // After the step: a widget asking for its own reload before any ran is not running to ask.
            defer {
                if !unreloaded.isEmpty, mayReload(step) {
                    unknown.formUnion(unreloaded)
                    unreloaded = []
                }
            }
            switch step.step {
            case .parallel(let children), .sequence(let children):
                for child in children { visit(child) }
                return
            case .workload(let workload):
                // Its operations pick among the ids committed to one store: another store has none of them.
                if Set(workload.processes).count > 1, let own = workload.processes.first(where: { storage[$0] == .own }) {
                    report(step, "a workload's processes share one store, and '\(own)' keeps a store of its own (storage: own); "
                        + "run a workload for it alone, or give it storage: group")
                }
                for process in workload.processes {
                    require(process, at: step, doing: "take part in the workload")
                    // A crash armed for a save may strike inside it, or not: the seed decides.
                    if crashArmed.contains(process) { unknown.insert(process) }
                }
                return
            case .fault(.crash(let process, .save)):
                // The fault arms the running process (the runner tells its agent): one not running, or
                // stopped, cannot be armed, whatever launches it later (a push, a reload).
                require(process, at: step, doing: "be armed by a crash fault (it arms the running process for its next save)")
                crashArmed.insert(process)
                return
            case .restoreStore:
                // The runner ends what the system runs; what the file launched must have ended.
                for process in order where roles[process]?.traits.launch == .steps && storage[process] == .group
                    && !unknown.contains(process) && lifecycles[process]?.state.isRunning == true {
                    report(step, "restore-store replaces the store file, and '\(process)' still has it open here; "
                        + "exit or crash it first")
                }
                return
            case .appUpdate, .sleep, .advanceClock, .fault:
                return
            default:
                break
            }
            if let process = step.process, roles[process] == .intent {
                visitIntent(step, intent: process)
                return
            }
            guard let process = step.process, lifecycles[process] != nil else { return }
            if unknown.contains(process) {
                stopForCertain(process, by: step)
                return
            }
            switch step.step {
            case .launch:
                apply([.launch, .ready], to: process, at: step)
                if mayFailToLoad.contains(process) { unknown.insert(process) }
            case .exit: apply([.exit], to: process, at: step)
            case .crash: apply([.crash], to: process, at: step)
            case .terminate: apply([.terminate], to: process, at: step)
            case .background: apply([.background], to: process, at: step)
            case .suspend: apply([.suspend], to: process, at: step)
            case .resume: apply([.resume], to: process, at: step)
            case .foreground: apply([.foreground], to: process, at: step)
            case .push:
                // The system launches (or resumes) the extension for the push, runs its work, and it exits
                // or is suspended (`between-pushes`).
                let state = lifecycles[process]!.state
                if state == .suspended { apply([.resume], to: process, at: step) }
                if !state.isRunning { apply([.launch, .ready], to: process, at: step) }
                apply([keptAfterPush.contains(process) ? .suspend : .exit], to: process, at: step)
            case .reload, .autosave:
                return
            case .save:
                require(process, at: step, doing: "save")
                if crashArmed.remove(process) != nil { apply([.crash], to: process, at: step) }
            case .results:
                require(process, at: step, doing: "check its fetched-results controller")
            default:
                require(process, at: step, doing: step.step.keyword)
            }
        }

        /// An exit, crash or terminate of a process whose state the run decides (its store may not have
        /// loaded) leaves it stopped for certain, as the run carries it out or fails at it: later steps of
        /// that process are checked again.
        mutating func stopForCertain(_ process: String, by step: ScenarioStep) {
            guard mayFailToLoad.contains(process), let role = roles[process] else { return }
            let (input, word): (LifecycleInput, String)
            switch step.step {
            case .exit: (input, word) = (.exit, "exited")
            case .crash: (input, word) = (.crash, "crashed")
            case .terminate: (input, word) = (.terminate, "was terminated")
            default: return
            }
            var lifecycle = ProcessLifecycle(process: process, role: role)
            for each in [LifecycleInput.launch, .ready, input] {
                guard (try? lifecycle.handle(each)) != nil else { return }
            }
            lifecycles[process] = lifecycle
            unknown.remove(process)
            stoppedAt[process] = (step.location, word)
        }

        /// An App Intent's step runs in the host's process while one runs (as the runner places it), and its
        /// unsaved work stays there until it saves: that host stopping first is refused. Where no host is
        /// decided (none running, or one whose state the steps do not decide) the run places the intent.
        mutating func visitIntent(_ step: ScenarioStep, intent: String) {
            // A tap hands on what the control shows, and a control shows nothing before its first reload.
            if case .toggle(_, _, .control) = step.step, let control = controlOf[intent], unreloaded.contains(control) {
                report(step, "the tap toggles what \(control) shows, and no reload of \(control) can have run before this step; "
                    + "ask for one first (reload-controls: \(control)), as a control renders its value before anyone can tap it")
            }
            if let pending = intentWork[intent], !unknown.contains(pending.host), let state = lifecycles[pending.host]?.state,
               state != .active && state != .background {
                report(step, "'\(intent)' has unsaved changes in \(pending.host)'s process (since line \(pending.location.line)), "
                    + "which is \(state) here; save (or roll back) before \(pending.host) stops: an intent finishes its work in one process")
                intentWork[intent] = nil
                return
            }
            if appIntents.contains(intent), intentWork[intent] == nil,
               let host = order.first(where: { roles[$0] == .host }), !unknown.contains(host), let state = lifecycles[host]?.state
            {
                // The system resumes the app, or launches it in the background, to perform the intent.
                if state == .suspended { apply([.resume], to: host, at: step) }
                if !state.isRunning {
                    apply([.launch, .ready, .background], to: host, at: step)
                    if mayFailToLoad.contains(host) { unknown.insert(host) }
                }
            }
            switch step.step.unsavedChanges {
            case .made:
                if intentWork[intent] == nil, let host = decidedHost() { intentWork[intent] = (host, step.location) }
            case .saved, .discarded:
                intentWork[intent] = nil
            case .lost, .kept:
                break
            }
        }

        /// The first host that can take commands, when the steps decide it.
        func decidedHost() -> String? {
            for name in order where roles[name] == .host {
                if unknown.contains(name) { return nil }
                if let state = lifecycles[name]?.state, state == .active || state == .background { return name }
            }
            return nil
        }

        /// Whether `step` may make the system run a widget: a reload asked for, an App Intent's step (a
        /// widget's button reloads it), or time passing (a timeline policy, a reload delay).
        func mayReload(_ step: ScenarioStep) -> Bool {
            switch step.step {
            case .reloadTimelines, .reloadControls, .sleep, .advanceClock: true
            default: step.process.map { roles[$0] == .intent } ?? false
            }
        }

        /// A step that needs the process running and not suspended.
        mutating func require(_ process: String, at step: ScenarioStep, doing what: String) {
            if unreloaded.contains(process) {
                report(step, "'\(process)' cannot \(what): the system has not run it yet (a widget runs when a reload is "
                    + "asked for, and none was before this step); ask for one first (reload-timelines, or reload-controls for a control)")
                return
            }
            guard let lifecycle = lifecycles[process], !unknown.contains(process) else { return }
            switch lifecycle.state {
            case .active, .background:
                return
            case .suspended:
                report(step, "'\(process)' cannot \(what): it is suspended here; resume it first (or bring it to the foreground)")
            default:
                let since = stoppedAt[process].map { " (it \($0.1) at line \($0.0.line))" } ?? " (it was never launched)"
                report(step, "'\(process)' cannot \(what): it is not running here\(since); launch it first")
            }
        }

        mutating func apply(_ inputs: [LifecycleInput], to process: String, at step: ScenarioStep) {
            guard var lifecycle = lifecycles[process] else { return }
            for input in inputs {
                do {
                    _ = try lifecycle.handle(input)
                } catch {
                    let since = stoppedAt[process].map { " (it \($0.1) at line \($0.0.line))" } ?? ""
                    report(step, "\(error)\(lifecycle.state.isRunning ? "" : since)")
                    return
                }
            }
            lifecycles[process] = lifecycle
            switch lifecycle.state {
            case .exited: stoppedAt[process] = (step.location, "exited")
            case .crashed: stoppedAt[process] = (step.location, "crashed")
            case .terminated: stoppedAt[process] = (step.location, "was terminated")
            default: break
            }
        }

        mutating func report(_ step: ScenarioStep, _ message: String) {
            let problem = Problem(location: step.location, message: message)
            if !problems.contains(problem) { problems.append(problem) }
        }
    }
}
