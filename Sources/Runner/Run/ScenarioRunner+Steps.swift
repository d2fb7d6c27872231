import Agent
import Basics
import Foundation
import ScenarioModel
import Supervisor
import Trace

extension ScenarioRunner {
    /// Executes one step (for `parallel`, its children together) and records its start and end.
    func execute(_ planned: RunPlan.PlannedStep) throws(HarnessFailure) {
        currentStep = planned
        record(.stepStarted)
        for note in planned.notes { record(.note(note)) }
        if case .push = planned.step.step {
            try runSystemWork(planned)
            return
        }
        if case .reload = planned.step.step {
            try runSystemWork(planned)
            return
        }
        if case .parallel = planned.step.step {
            try executeParallel(planned.children)
            currentStep = planned
            record(.stepEnded(nil))
            return
        }
        // A workload writes out its operations as it runs them.
        if clock.isVirtual, planned.step.step.keyword != "workload" { executed.append(planned.step) }
        if let process = planned.step.process {
            let slot = try slot(process)
            let error: ErrorRecord?
            if slot.process.settings.role == .intent {
                let (intentError, carrier) = try executeIntentStep(planned.step, intent: slot)
                // The step ends where it ran, beside what the carrier recorded of it (a failed save,
                // expected or not), so one failure counts once and `expect-error` applies to it.
                record(.stepEnded(intentError), as: carrier)
                return
            } else {
                commandContext = planned.step.context.map { ($0, nil, nil) }
                defer { commandContext = nil }
                error = try executeProcessStep(planned.step, on: slot)
            }
            record(.stepEnded(error))
        } else {
            try executeControl(planned.step.step)
            record(.stepEnded(nil))
        }
    }

    /// A step of one process: a lifecycle action, or a command for its agent.
    /// Returns the step's error (a scenario outcome, not a harness failure), if any.
    func executeProcessStep(_ step: ScenarioStep, on slot: ProcessSlot) throws(HarnessFailure) -> ErrorRecord? {
        if let outcome = try stepWhileAwaitingStore(step.step, slot) {
            // A step that expected its store not to load (`expect-error: store-load-failed`) succeeds so.
            guard var error = outcome else { return nil }
            error.expected = step.expectError?.kind == error.kind
            return error
        }
        switch step.step {
        case .launch: try lifecycle(.launch, slot)
        case .exit: try lifecycle(.exit, slot)
        case .crash:
            try lifecycle(.crash, slot)
            verifyAfterCrash(slot)
        case .background: try lifecycle(.background, slot)
        case .suspend: try suspend(slot)
        case .resume: try lifecycle(.resume, slot)
        case .foreground: try lifecycle(.foreground, slot)
        case .terminate: try lifecycle(.terminate, slot)
        case .reloadTimelines:
            // The request is the system's to act on: the plan placed the reloads it runs (`ReloadSchedule`).
            guard slot.canTakeCommands else {
                throw failure("it asks for a timeline reload but is not running; launch it first", process: slot.name)
            }
        default:
            guard let command = command(for: step.step, on: slot) else {
                throw failure("step cannot be sent to an agent", process: slot.name)
            }
            let start = clock.now()
            let reply: AgentReply
            switch (clock.isVirtual, command) {
            case (true, .read(_, _, _, let within, _, _)), (true, .count(_, _, _, let within)), (true, .state(_, _, let within)):
                reply = try sendCheck(command, within: within, to: slot, expectError: step.expectError?.kind)
            default:
                reply = try send(command, to: slot, expectError: step.expectError?.kind,
                                 timeout: timeout(for: step.step, slot))
            }
            afterReply(reply, to: step.step, from: slot, sentAt: start)
            return reply.error
        }
        return nil
    }

    /// Sends every child's command first, then waits for every reply: the steps run together. In the
    /// deterministic mode they run one at a time, in an order drawn from the seed.
    func executeParallel(_ children: [RunPlan.PlannedStep]) throws(HarnessFailure) {
        if clock.isVirtual {
            for child in serializedOrder(children) {
                try schedulingPoint()
                try execute(child)
            }
            return
        }
        var pending: [(RunPlan.PlannedStep, ProcessSlot, Int, UInt64)] = []
        var busy: Set<String> = []
        for child in children {
            guard let process = child.step.process, !busy.contains(process),
                  let slot = slots[process], slot.canTakeCommands, slot.process.settings.role != .intent,
                  let command = command(for: child.step.step, on: slot)
            else {
                // Lifecycle and control steps, and a second step of one process, run in order.
                try finishPending(&pending)
                try execute(child)
                continue
            }
            currentStep = child
            record(.stepStarted)
            busy.insert(process)
            let sentAt = clock.now()
            commandContext = child.step.context.map { ($0, nil, nil) }
            let written = Result { () throws(HarnessFailure) in try write(command, to: slot, expectError: child.step.expectError?.kind) }
            commandContext = nil
            pending.append((child, slot, try written.get(), sentAt))
        }
        try finishPending(&pending)
    }

    /// Collects the replies of steps running together, in whatever order they come: a step that
    /// blocks on another's lock must not wait for the runner to read that other reply first (an
    /// armed crash inside a save holds the write lock until the runner kills it).
    private func finishPending(_ pending: inout [(RunPlan.PlannedStep, ProcessSlot, Int, UInt64)]) throws(HarnessFailure) {
        let start = ContinuousClock.now
        while !pending.isEmpty {
            for index in pending.indices.reversed() {
                let (child, slot, seq, sentAt) = pending[index]
                currentStep = child
                if let reply = try readReply(seq, from: slot, timeout: .milliseconds(1)) {
                    afterReply(reply, to: child.step.step, from: slot, sentAt: sentAt)
                    record(.stepEnded(reply.error))
                    pending.remove(at: index)
                } else if ContinuousClock.now - start > timeout(for: child.step.step, slot) {
                    throw failure("timed out waiting for the reply to step \(currentStepText)", process: slot.name)
                }
            }
        }
    }

    // MARK: Talking to agents

    /// Sends `command` and waits for its reply; a harness failure when the agent cannot take it.
    @discardableResult
    func send(_ command: AgentCommand, to slot: ProcessSlot, expectError: ErrorKind? = nil,
              timeout: Swift.Duration? = nil, lastAttempt: Bool? = nil) throws(HarnessFailure) -> AgentReply {
        let seq = try write(command, to: slot, expectError: expectError, lastAttempt: lastAttempt)
        return try awaitReply(seq, from: slot, timeout: timeout ?? options.stepTimeout)
    }

    /// Writes one request line; returns its sequence number.
    func write(_ command: AgentCommand, to slot: ProcessSlot, expectError: ErrorKind?,
               lastAttempt: Bool? = nil) throws(HarnessFailure) -> Int {
        guard let child = slot.child else {
            let state = slot.lifecycle.state
            throw failure("it is not running\(state == .notRunning ? "" : " (\(state))"); launch it first", process: slot.name)
        }
        guard slot.canTakeCommands else {
            throw failure("it is \(slot.lifecycle.state); resume it first", process: slot.name)
        }
        let seq = slot.takeSeq()
        let known = objects.rows[slot.store] ?? [:]
        let delta = known.filter { slot.sentIDs[$0.key] != $0.value }
        slot.sentIDs.merge(delta) { $1 }
        var request = AgentRequest(seq: seq, step: currentStep?.index, expectError: expectError, ids: delta,
                                   deliveries: socketHub?.deliveredCount(to: slot.name), command: command)
        request.context = commandContext?.name
        request.contextAuthor = commandContext?.author
        request.contextMergePolicy = commandContext?.mergePolicy
        if let scriptedHub {
            request.virtualTime = clock.current
            request.notifications = scriptedHub.take(for: slot.name)
            request.lastAttempt = lastAttempt
        }
        switch command {
        case .sync, .leech: request.globalIDs = objects.globalIDs
        default: break
        }
        do {
            try Self.send(request, to: child)
        } catch {
            if let death = unexpectedDeath(of: slot) { throw death }
            throw failure("cannot send the step: \(error)", process: slot.name)
        }
        return seq
    }

    /// Reads replies until the one numbered `seq` (earlier fire-and-forget replies are skipped).
    func awaitReply(_ seq: Int, from slot: ProcessSlot, timeout: Swift.Duration) throws(HarnessFailure) -> AgentReply {
        guard let reply = try readReply(seq, from: slot, timeout: timeout) else {
            throw failure("timed out after \(timeout) waiting for the reply to step \(currentStepText)\(stderrTail(of: slot))",
                          process: slot.name)
        }
        return reply
    }

    /// The reply numbered `seq`, or nil when none came within `timeout`.
    func readReply(_ seq: Int, from slot: ProcessSlot, timeout: Swift.Duration) throws(HarnessFailure) -> AgentReply? {
        guard let child = slot.child else { throw failure("it exited before replying", process: slot.name) }
        while true {
            let line: String
            do {
                line = try child.readLine(timeout: timeout, awaiting: "the reply to step \(currentStepText)")
            } catch SupervisorError.timedOut {
                return nil
            } catch {
                if let death = unexpectedDeath(of: slot) { throw death }
                throw failure("\(error)\(stderrTail(of: slot))", process: slot.name)
            }
            guard let reply = try? JSONDecoder().decode(AgentReply.self, from: Data(line.utf8)) else {
                throw failure("unreadable reply: \(line)", process: slot.name)
            }
            followVirtualTime(reply, from: slot)
            if reply.status == .atCommit {
                try crashInsideSave(slot)
                return AgentReply(seq: seq, status: .ok)
            }
            guard reply.seq == seq else { continue }
            learn(reply, from: slot)
            if reply.status == .failed, let error = reply.error, error.kind == .other || error.kind == .timeout {
                throw failure(error.message, process: slot.name)
            }
            return reply
        }
    }

    /// Deterministic mode: the runner's clock moves past the agent's readings, and what the agent
    /// posted or observed goes to the hub.
    func followVirtualTime(_ reply: AgentReply, from slot: ProcessSlot) {
        if let end = reply.virtualEnd { clock.advance(to: end) }
        if let activity = reply.notifications { scriptedHub?.route(activity, from: slot.name) }
    }

    /// Records what a save committed so other agents can name the same rows.
    private func learn(_ reply: AgentReply, from slot: ProcessSlot) {
        objects.learn(reply, in: slot.store)
    }

    var currentStepText: String {
        guard let step = currentStep else { return "(final)" }
        return "'\(StepText.render(step.step))' at \(step.step.location.file):\(step.step.location.line)"
    }

    func stderrTail(of slot: ProcessSlot) -> String {
        let text = (try? String(contentsOf: sandbox.stderr(of: slot.name), encoding: .utf8)) ?? ""
        let tail = text.split(separator: "\n").suffix(5).joined(separator: "\n")
        return tail.isEmpty ? "" : "\nits stderr ends with:\n\(tail)"
    }

    /// The reply timeout of a step: the harness's margin plus the step's own waits.
    func timeout(for step: Step, _ slot: ProcessSlot) -> Swift.Duration {
        var extra: UInt64 = slot.process.settings.busyTimeout.nanos
        switch step {
        case .read(_, _, .within(let duration)), .count(_, _, _, .within(let duration)), .state(_, _, .within(let duration)):
            extra += duration.nanos
        default: break
        }
        return options.stepTimeout + .nanoseconds(Int64(extra))
    }

    /// What the runner does once a step's reply is in: a copy is verified against what was
    /// committed before the step was sent.
    func afterReply(_ reply: AgentReply, to step: Step, from slot: ProcessSlot, sentAt: UInt64) {
        if case .copyStore(let name, _) = step, reply.error == nil {
            let url = sandbox.copies.appendingPathComponent(name).appendingPathComponent("\(plan.run.store.name).sqlite")
            verify(url, label: "copy:\(name)", reason: .copy, store: slot.store, since: sentAt)
        }
    }

    /// Writes one request line to an agent.
    static func send(_ request: AgentRequest, to child: any SupervisedProcess) throws {
        try child.writeLine(String(decoding: try JSONEncoder().encode(request), as: UTF8.self))
    }
}
