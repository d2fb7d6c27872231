import Agent
import Basics
import Foundation
import ScenarioModel
import Supervisor
import Trace

extension ScenarioRunner {
    /// A step not tied to one process: sleep, clock, workload, fault.
    func executeControl(_ step: Step) throws(HarnessFailure) {
        switch step {
        case .sleep(let duration):
            try env.sleep(nanos: duration.nanos)
        case .advanceClock(let duration):
            clockOffset = clockOffset.addingClamped(duration.nanos)
            // No reply is awaited: a suspended agent applies it when it runs again, before anything else.
            for slot in slots.values where slot.child != nil && slot.lifecycle.state.isRunning {
                _ = try? writeIgnoringState(.advanceClock(nanos: duration.nanos), to: slot)
            }
        case .workload(let workload):
            try runWorkload(workload)
        case .restoreStore(let name):
            try restoreStore(from: name)
        case .appUpdate(let version):
            installedVersion = version
            let running = slots.values.filter { $0.child != nil }.map(\.name).sorted()
            let names = running.count < 2 ? running.joined() : running.dropLast().joined(separator: ", ") + " and " + running.last!
            record(.note("the app is updated to \(version): every process launched from now on opens the store with it"
                + (running.isEmpty ? "" : running.count == 1 ? "; \(names) keeps the version it was launched with until it ends"
                    : "; \(names) keep the version they were launched with until they end")))
        case .fault(let fault):
            try inject(fault)
        default:
            throw failure("step \(StepText.render(step)) needs a process")
        }
    }

    private func inject(_ fault: Fault) throws(HarnessFailure) {
        switch fault {
        case .dropNotifications(let process, let duration):
            hub.dropNotifications(to: process, for: .nanoseconds(Int64(duration.nanos)))
        case .delayNotifications(let process, let delay):
            hub.delayNotifications(to: process, by: .nanoseconds(Int64(delay.nanos)))
        case .holdNotifications(let process):
            // Until its next `deliver` step; one hold whatever how many faults ask for it.
            if heldByFault.insert(process).inserted {
                hub.hold(process)
                // A request carries the hold to the agent (`AgentRequest.notificationsHeld`): a clock
                // advance of nothing, which is answered by no reply.
                if env.agentsLearnOfHolds, let slot = slots[process], slot.child != nil {
                    try? writeIgnoringState(.advanceClock(nanos: 0), to: slot)
                }
            }
        case .crash(let process, _):
            let target = try slot(process)
            guard !target.hasNoStore else {
                record(.note("\(process) has no store loaded (it did not load at launch): there is no save to crash"))
                return
            }
            try send(.armCrashDuringSave, to: target)
        }
    }

    /// Writes to a running agent even when it is stopped (the kernel buffers the line).
    private func writeIgnoringState(_ command: AgentCommand, to slot: ProcessSlot) throws {
        guard let child = slot.child else { return }
        var request = AgentRequest(seq: slot.takeSeq(), command: command)
        if heldByFault.contains(slot.name) { request.notificationsHeld = true }
        try Self.send(request, to: child)
    }

    /// The workload's entity and its generator, seeded from the workload (or the run's seed and the step).
    func workloadGenerator(_ workload: Workload, at index: Int?) -> (EntityDescription?, WorkloadGenerator) {
        let entity = plan.run.store.model.entity(named: workload.entity)
        let attribute = entity?.attributes.first { !$0.isOptional && [.string, .int, .double].contains($0.type) }
        let seed = workload.seed ?? plan.run.rootSeed &+ UInt64(index ?? 0)
        return (entity, WorkloadGenerator(
            processes: workload.processes,
            mix: .init(insert: workload.mix.insert, update: workload.mix.update, delete: workload.mix.delete, read: workload.mix.read),
            rate: workload.rate, durationNanos: workload.duration.nanos, keys: workload.keys,
            attribute: attribute.map { ($0.name, $0.type) }, seed: seed))
    }

    /// The workload's ids (k1...k<keys> of its entity) live in its store now, sorted: it touches only its
    /// own objects, whatever else lives in the store.
    func committedWorkloadIDs(_ workload: Workload) -> [String] {
        let store = slots[workload.processes.first ?? ""]?.store ?? "group:\(plan.run.store.group)"
        return (objects.live[store] ?? []).filter { id in
            guard id.hasPrefix("k"), let number = Int(id.dropFirst()) else { return false }
            return number >= 1 && number <= workload.keys && objects.rows[store]?[id]?.entity == workload.entity
        }.sorted()
    }

    /// Random operations from the workload's seed, at its rate; each write saves at once and every
    /// read is checked like any other.
    private func runWorkload(_ workload: Workload) throws(HarnessFailure) {
        let storeless = workload.processes.filter { slots[$0]?.hasNoStore == true }
        guard storeless.isEmpty else {
            record(.note("the workload did not run: \(storeless.joined(separator: ", ")) has no store loaded (it did not load at launch)"))
            return
        }
        let (entity, seeded) = workloadGenerator(workload, at: currentStep?.index)
        var generator = seeded
        let start = time.now
        func committed() -> [String] { committedWorkloadIDs(workload) }
        defer {
            let took = time.now - start
            let asked = workload.duration.nanos
            // A loaded or slow machine cannot keep every rate: say so rather than stretch silently.
            if took > asked + asked / 10 + 100_000_000 {
                let achieved = Int((Double(generator.count) / (Double(took) / 1e9)).rounded())
                record(.warning("the workload at \(Int(workload.rate.rounded()))/s for \(workload.duration) took \(took / 1_000_000) ms: its \(generator.count) operations ran at \(achieved)/s in this run's time (virtual in the deterministic mode)"))
            }
        }
        var stopped: Set<String> = []
        while let op = generator.next(committed: committed()) {
            try env.pace(until: start &+ op.offsetNanos)
            let slot = try slot(op.process)
            // A process the workload's own operation killed (`crash ... during: save`) takes no more of
            // them: the others go on, as the killed step is an outcome, not a harness error.
            guard slot.canTakeCommands || slot.lifecycle.state != .crashed else {
                if stopped.insert(op.process).inserted {
                    record(.note("the workload's operations on \(op.process) stop: it is \(slot.lifecycle.state)"))
                }
                continue
            }
            try env.beforeStep(ScenarioStep(location: currentStep?.step.location ?? .schedule, process: op.process,
                                            step: op.kind == .read ? .read(id: op.id, expectation: nil, timing: .now) : .save))
            switch op.kind {
            case .insert:
                let defaults = entity?.valuesForInsert(objectID: op.id, explicit: [:]) ?? [:]
                let values = defaults.merging(op.values) { $1 }
                try workloadStep(.insert(entity: workload.entity, id: op.id, values: values), slot)
                try workloadStep(.save, slot)
            case .update:
                try workloadStep(.update(id: op.id, values: op.values), slot)
                try workloadStep(.save, slot)
            case .delete:
                try workloadStep(.delete(id: op.id), slot)
                try workloadStep(.save, slot)
            case .read:
                try workloadStep(.read(id: op.id, expectation: nil, timing: .now), slot)
            }
        }
    }

    /// One workload operation; a failed save (a conflict, a row deleted meanwhile) is a recorded
    /// outcome, and the unsaved change is rolled back so the next operation starts clean.
    private func workloadStep(_ step: Step, _ slot: ProcessSlot) throws(HarnessFailure) {
        let location = currentStep?.step.location ?? SourceLocation(file: plan.run.file, line: 1, column: 1)
        let written = runningTogether == 0
        if written { executed.append(ScenarioStep(location: location, process: slot.name, step: step), executing: true) }
        defer { if written { executed.endStep() } }
        let reply = try perform(.perform(step, workload: true), on: slot, expectError: nil,
                                timeout: options.stepTimeout + .nanoseconds(Int64(slot.process.settings.busyTimeout.nanos)))
        if let error = reply.error, slot.canTakeCommands {
            record(.error(error), as: slot.name)
            if written { executed.append(ScenarioStep(location: location, process: slot.name, step: .rollback)) }
            try send(.perform(.rollback), to: slot)
        }
    }
}
