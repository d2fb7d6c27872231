import Basics
import ScenarioModel
import Trace

/// What the system runs on its own: a push to a notification service extension, a widget's reload.
extension ScenarioRunner {
    /// Runs `planned` (a `push` or a widget's `reload`): the system launches the process (or resumes
    /// a widget kept suspended since its last reload), a widget runs its refresh strategy, the process
    /// does its work (the step's children), then a notification service extension exits and a widget
    /// is suspended or exits (`between-reloads`). In the deterministic mode each of these is written
    /// out as its own step, so a counterexample replays without the process's declared work.
    func runSystemWork(_ planned: RunPlan.PlannedStep) throws(HarnessFailure) {
        guard let name = planned.step.process else { throw failure("the system's work names no process") }
        let slot = try slot(name)
        let settings = slot.process.settings
        func system(_ step: Step) throws(HarnessFailure) {
            let scenarioStep = ScenarioStep(location: planned.step.location, process: name, step: step)
            if clock.isVirtual { executed.append(scenarioStep) }
            if let error = try executeProcessStep(scenarioStep, on: slot) {
                throw failure("the system could not \(step.keyword) '\(name)': \(error.message)", process: name)
            }
        }
        switch slot.lifecycle.state {
        case .suspended: try system(.resume)
        case .active, .background, .launching: break
        case .notRunning, .exited, .crashed, .terminated, .killed: try system(.launch)
        }
        if case .reload = planned.step.step, settings.refresh != .none {
            try system(.runRefresh)
        }
        for child in planned.children {
            try execute(child)
            currentStep = planned
        }
        if case .push = planned.step.step {
            try system(.exit)
        } else {
            // What the reload rendered stays on screen until the next one: the widget's view.
            if slot.canTakeCommands {
                try send(.finalView, to: slot)
                widgetsReloaded.insert(name)
            }
            try system(settings.betweenReloads == .suspend ? .suspend : .exit)
        }
        record(.stepEnded(nil))
    }
}

extension ScenarioRunner {
    /// An App Intent's step runs where the system runs intents: in the host's process when it is
    /// running and not suspended, otherwise in a widget's (resumed or launched for it, and suspended or
    /// ended again after), otherwise in the intent's own process; in another process, through a context
    /// of the intent's own. The trace says which process ran it.
    func executeIntentStep(_ step: ScenarioStep, intent: ProcessSlot) throws(HarnessFailure) -> ErrorRecord? {
        var after: Step?
        let carrier: ProcessSlot
        if let host = orderedSlots.first(where: { $0.process.settings.role == .host && $0.canTakeCommands }) {
            carrier = host
        } else if let widget = orderedSlots.first(where: { $0.process.settings.role == .widget }) {
            switch widget.lifecycle.state {
            case .suspended:
                try lifecycle(.resume, widget)
                after = .suspend
            case .active, .background, .launching:
                break
            case .notRunning, .exited, .crashed, .terminated, .killed:
                try lifecycle(.launch, widget)
                after = .exit
            }
            carrier = widget
        } else {
            if !intent.lifecycle.state.isRunning { try lifecycle(.launch, intent) }
            carrier = intent
        }
        record(.note("\(intent.name)'s step runs in \(carrier.name)'s process"
            + (carrier === intent ? "" : ", through a context of \(intent.name)'s own")), as: intent.name)
        commandContext = carrier === intent ? nil : (intent.name, intent.name)
        let error: ErrorRecord?
        do {
            error = try executeProcessStep(step, on: carrier)
        } catch {
            commandContext = nil
            throw error
        }
        commandContext = nil
        switch after {
        case .suspend?: try suspend(carrier)
        case .exit?: try lifecycle(.exit, carrier)
        default: break
        }
        return error
    }
}
