import Basics
import SharedStore
import ScenarioModel
import Trace

/// What the system runs on its own: a push to a notification service extension, a widget's reload.
extension ScenarioRunner {
    /// Runs `planned` (a `push` or a widget's `reload`): the system launches the process (or resumes
    /// a widget kept suspended since its last reload), a widget runs its refresh strategy, the process
    /// does its work (the step's children), then it is suspended or exits (`between-pushes`,
    /// `between-reloads`). In the deterministic mode each of these is written
    /// out as its own step, so a counterexample replays without the process's declared work.
    func runSystemWork(_ planned: RunPlan.PlannedStep) throws(HarnessFailure) {
        guard let name = planned.step.process else { throw failure("the system's work names no process") }
        let slot = try slot(name)
        let settings = slot.process.settings
        /// Runs a step of the system's; false when the process's store still does not load (the error is
        /// recorded, as an anomaly of the step), so its work cannot run.
        @discardableResult
        func system(_ step: Step) throws(HarnessFailure) -> Bool {
            let scenarioStep = ScenarioStep(location: planned.step.location, process: name, step: step)
            executed.append(scenarioStep, executing: true)
            defer { executed.endStep() }
            if let error = try executeProcessStep(scenarioStep, on: slot) {
                guard error.kind == .storeLoadFailed else {
                    throw failure("the system could not \(step.keyword) '\(name)': \(error.message)", process: name)
                }
                record(.error(error), as: name)
                return false
            }
            return true
        }
        /// What the system does once the work is over: the process is suspended or exits
        /// (`between-pushes` for a notification service extension, `between-reloads` for a widget).
        func endOfWork() throws(HarnessFailure) {
            let between = if case .push = planned.step.step { settings.betweenPushes } else { settings.betweenReloads }
            try system(between == .suspend ? .suspend : .exit)
        }
        /// Ends the step without its work: the process's store does not load.
        func withoutStore() throws(HarnessFailure) {
            record(.note("\(name)'s store still does not load; its work did not run"))
            try endOfWork()
            record(.stepEnded(nil))
        }
        switch slot.lifecycle.state {
        case .suspended: try system(.resume)
        case .active, .background, .launching: break
        case .notRunning, .exited, .crashed, .terminated, .killed: try system(.launch)
        }
        if case .reload = planned.step.step, settings.onNewerModel == .exit, slot.child != nil,
           let newer = newerStoreVersion(than: slot) {
            record(.note("\(name) finds the store at \(newer), newer than its \(slot.modelVersion ?? "model"), and exits; "
                + "the system launches the updated extension for the reload"), as: name)
            try system(.exit)
            try system(.launch)
        }
        guard slot.child != nil || slot.awaitingStore != nil else {
            // Its store did not load and it ended (the error is recorded): its work never runs.
            record(.note("\(name)'s store did not load; its work did not run"))
            record(.stepEnded(nil))
            return
        }
        // Waiting for its store: one attempt for the whole of its work, which needs it.
        if slot.awaitingStore != nil, let error = try retryLoad(slot) {
            record(.error(error), as: name)
            try withoutStore()
            return
        }
        if runningTogether > 0 { try env.catchUpBesideSystemWork() }
        if case .reload = planned.step.step, settings.refresh != .none, !(try system(.runRefresh)) {
            try withoutStore()
            return
        }
        if case .reload = planned.step.step, settings.role.traits.display == .value {
            rendering = name
            // A reload renders afresh: what it does not read, the control no longer shows.
            shownByControls[name] = [:]
        }
        defer { rendering = nil }
        for child in planned.children {
            if runningTogether > 0 { try env.catchUpBesideSystemWork() }
            try execute(child)
            currentStep = planned
            // Killed in the middle of its work (a crash fault): the rest of the work never runs.
            guard slot.lifecycle.state.isRunning else {
                record(.note("\(name) ended in the middle of its work; the rest of it did not run"))
                record(.stepEnded(nil))
                return
            }
        }
        // What a reload rendered stays on screen until the next one: the widget's view.
        if case .reload = planned.step.step, slot.canTakeCommands {
            try send(.finalView, to: slot)
            widgetsReloaded.insert(name)
        }
        try endOfWork()
        record(.stepEnded(nil))
    }
}

extension ScenarioRunner {
    /// The version of the store's model when it is later than the one `slot`'s process runs (nil when it
    /// is not, or cannot be told): what a widget checking at each reload (`on-newer-model: exit`) reads
    /// from the store's metadata.
    func newerStoreVersion(than slot: ProcessSlot) -> String? {
        let versions = plan.run.store.versions
        guard !versions.isEmpty, let url = try? storeFile(storeLocation(of: slot)),
              let hash = try? StoreCoordinator.modelHash(ofStoreAt: url),
              let stored = versions.firstIndex(where: { (try? Model($0.model))?.versionHash == hash }) else { return nil }
        let own = slot.modelVersion.flatMap { name in versions.firstIndex { $0.name == name } } ?? versions.count - 1
        return stored > own ? versions[stored].name : nil
    }

    /// An App Intent's step runs where the system runs intents. One built into the app (`runs-in: app`)
    /// runs in the host's process, which the system resumes (suspended) or launches in the background (not
    /// running) for it, and leaves running. One of an extension, in the host's process when it is
    /// running and not suspended; otherwise, for an intent a widget's button runs (`widget-button:`), in
    /// that widget's process (resumed or launched for it, and left running: the system keeps an extension
    /// alive while it performs an intent); otherwise (Shortcuts, Siri) in the intent's own process, as an
    /// App Intents extension's; in another process, through a context of the intent's own. Steps after an unsaved change
    /// run where that change is: an intent does not move between processes in the middle of its work.
    /// The trace says which process ran each step; returns the step's error and that process's name.
    func executeIntentStep(_ step: ScenarioStep, intent: ProcessSlot) throws(HarnessFailure) -> (ErrorRecord?, String) {
        let carrier: ProcessSlot
        // A widget's or control's process that a reload (the system's schedule, which validation cannot
        // follow) suspended or ended under the intent's unsaved work: the system resumes a suspended one for
        // the intent to finish there; an ended one took the work with it, and the intent's next step runs
        // where the system performs it now.
        if let pending = intentWork[intent.name], let slot = slots[pending], slot.process.settings.role.isRenderedBySystem,
           !slot.canTakeCommands {
            if slot.lifecycle.state == .suspended {
                try lifecycle(.resume, slot)
                record(.note("the system resumes \(pending) for \(intent.name) to finish the work it began there"), as: intent.name)
            } else {
                intentWork[intent.name] = nil
                record(.note("\(intent.name)'s unsaved changes in \(pending)'s process ended with it (\(slot.lifecycle.state))"),
                       as: intent.name)
            }
        }
        if let pending = intentWork[intent.name], let slot = slots[pending] {
            guard slot.canTakeCommands else {
                throw failure("\(intent.name) has unsaved changes in \(pending)'s process, which is now \(slot.lifecycle.state); "
                    + "save (or roll back) before \(pending) stops, as an intent finishes its work in one process", process: intent.name)
            }
            carrier = slot
        } else if intent.process.settings.runsIn == .app, let host = orderedSlots.first(where: { $0.process.settings.role == .host }) {
            switch host.lifecycle.state {
            case .suspended:
                try lifecycle(.resume, host)
                record(.note("the system resumes \(host.name) to perform \(intent.name), an intent of the app's target"), as: intent.name)
            case .active, .background, .launching: break
            case .notRunning, .exited, .crashed, .terminated, .killed:
                // A launch the system makes, as a launch step does: what an earlier failed load skipped ends.
                host.endedByLoadFailure = false
                try lifecycle(.launch, host)
                if host.lifecycle.state == .active { try lifecycle(.background, host) }
                record(.note("the system launches \(host.name) in the background to perform \(intent.name), an intent of the app's target"),
                       as: intent.name)
            }
            carrier = host
        } else if let host = orderedSlots.first(where: { $0.process.settings.role == .host && $0.canTakeCommands }) {
            carrier = host
        } else if let button = intent.process.settings.tappedIn,
                  let widget = orderedSlots.first(where: { $0.process.settings.role.isRenderedBySystem && $0.name == button }) {
            switch widget.lifecycle.state {
            case .suspended: try lifecycle(.resume, widget)
            case .active, .background, .launching: break
            case .notRunning, .exited, .crashed, .terminated, .killed: try lifecycle(.launch, widget)
            }
            carrier = widget
        } else {
            if !intent.lifecycle.state.isRunning { try lifecycle(.launch, intent) }
            carrier = intent
        }
        record(.note("\(intent.name)'s step runs in \(carrier.name)'s process"
            + (carrier === intent ? "" : ", through a context of \(intent.name)'s own")), as: intent.name)
        commandContext = carrier === intent ? nil : (intent.name, intent.name, intent.process.settings.mergePolicy)
        let error: ErrorRecord?
        do {
            error = try executeProcessStep(step, on: carrier)
        } catch {
            commandContext = nil
            throw error
        }
        commandContext = nil
        // Where its unsaved work now is (an object action leaves some; save, rollback and reset end it), if
        // the process could run it (its store may not have loaded).
        guard carrier.canTakeCommands else {
            intentWork[intent.name] = nil
            return (error, carrier.name)
        }
        switch step.step.unsavedChanges {
        case .made: intentWork[intent.name] = carrier.name
        case .saved, .discarded: intentWork[intent.name] = nil
        case .lost, .kept: break
        }
        return (error, carrier.name)
    }
}
