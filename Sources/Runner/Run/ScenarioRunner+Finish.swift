import Agent
import Foundation
import Supervisor
import Trace

extension ScenarioRunner {
    /// The end of a run: every live process gets a last, quiescent refresh and records its view (a
    /// widget records what its last reload rendered: nothing refreshes it between reloads; an App Intent
    /// and a notification service extension show nothing and record none); then each
    /// store's contents are recorded, for convergence, duplicates and data loss.
    func finish() throws(HarnessFailure) {
        for slot in orderedSlots where slot.lifecycle.state == .suspended {
            try lifecycle(.resume, slot)
        }
        // The final refresh comes after every notification posted has arrived.
        for process in heldByFault.sorted() { hub.release(process) }
        heldByFault = []
        env.finishing()
        // So does every notification a `delay-notifications` fault holds back: the run waits until the last
        // falls due (in real time it sleeps; in the deterministic mode virtual time passes, firing polls and
        // timers on the way as a sleep does), so its refresh is the process's own in both modes, not a race
        // with the final one.
        var waited: UInt64 = 0
        while let due = hub.lastDelayedDue, due > waited {
            try env.pace(until: due)
            waited = due
        }
        // Every notification delivered is handled (with the refreshes it triggers) before the final one:
        // the request waits for them.
        for slot in orderedSlots where slot.canTakeCommands {
            // An App Intent's own process shows nothing: the system ends it once perform() returns, so it
            // has no last view to judge; nor has a notification service extension kept between pushes
            // (what its pushes saw is judged at its steps, what it saved in the store).
            switch slot.process.settings.role.traits.display {
            case .nothing:
                continue
            case .screen:
                try send(.finalRefresh, to: slot)
            case .timeline, .value:
                // A widget's (or a control's) view is what its last reload rendered, recorded then.
                if !widgetsReloaded.contains(slot.name) { try send(.finalView, to: slot) }
            }
        }
        // Growth is measured while the processes still hold the store open: the last to close it
        // checkpoints and deletes the `-wal` file.
        for store in storesToDump {
            record(.storeGrowth(try growth(of: store)), as: "runner")
        }
        for slot in orderedSlots where slot.canTakeCommands {
            // The run's end closes it: what it has not saved is not lost to anything the file did. An App
            // Intent's own process is the exception: the system ends it once perform() has returned, so
            // what its steps left unsaved was lost then.
            if !slot.process.settings.role.isPerformed { slot.unsaved = nil }
            try lifecycle(.exit, slot)
        }
        for store in storesToDump {
            record(.finalStore(try dump(store)))
        }
        verifyCopiesSetAside()
    }

    /// The running processes that have the store `traceName` open (suspended ones included).
    func processesHolding(_ traceName: String) -> [ProcessSlot] {
        // A process waiting to load its store holds no file of it.
        orderedSlots.filter { $0.store == traceName && $0.lifecycle.state.isRunning && $0.awaitingStore == nil }
    }

    var orderedSlots: [ProcessSlot] {
        plan.run.processes.compactMap { slots[$0.name] }
    }

    /// Kills whatever still runs (after a failure), and reaps it.
    func stopAll() {
        for slot in slots.values {
            slot.child?.kill()
            slot.child = nil
        }
    }

    /// Every event of the run, merged by time, and the first trace file that could not be read
    /// (a run judged without part of its trace is no verdict).
    func collectTrace() -> (RunTrace, HarnessFailure?) {
        // The agents' files, and the runner's and the hub's events, which they kept in memory, in the order
        // of their names (same-instant events keep it).
        var streams: [(name: String, events: [TraceEvent])] = [("hub", env.hubEvents), ("runner", recorder.events)]
        var failure: HarnessFailure?
        for file in sandbox.traceFiles {
            do {
                streams.append((file.deletingPathExtension().lastPathComponent, try TraceFile.readEvents(from: file)))
            } catch {
                failure = failure ?? HarnessFailure(message: "cannot read the trace: \(error)")
            }
        }
        let ordered = streams.sorted { $0.name < $1.name }.map(\.events)
        return (RunTrace(info: plan.info, events: RunTrace.merge(ordered)), failure)
    }

    /// Each process's stderr, for the report.
    func collectStderr() -> [String: String] {
        var result: [String: String] = [:]
        for slot in orderedSlots {
            let text = (try? String(contentsOf: sandbox.stderr(of: slot.name), encoding: .utf8)) ?? ""
            if !text.isEmpty { result[slot.name] = text }
        }
        return result
    }
}

extension ScenarioRunner {
    /// Notes each held store's `-wal` size after `step` (`StoreGrowthMeter`).
    func sampleWAL(after step: Int) {
        let held = storesToDump.filter { !processesHolding($0.traceName).isEmpty }
        growthMeter.sampleWAL(of: held.map { store in (store.traceName, { [self] in try storeFile(store) }) }, after: step)
    }

    /// The store's growth over the run, measured now (`StoreGrowthMeter`).
    func growth(of store: StoreLocation) throws(HarnessFailure) -> StoreGrowth {
        do {
            return try growthMeter.growth(of: store.traceName, file: try storeFile(store),
                                          held: !processesHolding(store.traceName).isEmpty, step: currentStep?.index)
        } catch {
            throw failure("cannot measure the growth of \(store.traceName): \(error)")
        }
    }
}
