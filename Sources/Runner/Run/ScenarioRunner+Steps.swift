import Agent
import Basics
import Foundation
import ScenarioModel
import Supervisor
import Trace

extension ScenarioRunner {
    /// Executes one step (for `parallel`, its children together) and records its start and end.
    func execute(_ planned: RunPlan.PlannedStep) throws(HarnessFailure) {
        // A sequence (a branch of `parallel`) is its steps, in order; it records nothing of its own.
        if case .sequence = planned.step.step {
            for child in planned.children { try execute(child) }
            return
        }
        // The children of a `parallel` step start together: no choice is made between them.
        if runningTogether == 0 { try env.beforeStep(planned.step) }
        currentStep = planned
        record(.stepStarted)
        for note in planned.notes { record(.note(note)) }
        switch planned.step.step {
        case .push, .reload:
            try runSystemWork(planned)
            return
        case .parallel:
            try executeParallel(planned)
            currentStep = planned
            record(.stepEnded(nil))
            return
        default:
            break
        }
        // A workload writes out its operations as it runs them; a child of `parallel` is written with it.
        let written = runningTogether == 0 && planned.step.step.keyword != "workload"
        if written { executed.append(planned.step, executing: true) }
        defer { if written { executed.endStep() } }
        if let process = planned.step.process {
            let slot = try slot(process)
            let error: ErrorRecord?
            if slot.process.settings.role.isPerformed {
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
            error.expected = step.expectError == error.kind
            return error
        }
        if let refused = undecidedRefusal(of: step.step, slot) { return refused }
        switch step.step {
        case .launch: try lifecycle(.launch, slot, expecting: step.expectError)
        case .exit: try lifecycle(.exit, slot)
        case .crash:
            try lifecycle(.crash, slot)
            verifyAfterCrash(slot)
        case .background: try lifecycle(.background, slot, expecting: step.expectError)
        case .suspend: try suspend(slot)
        case .resume: try lifecycle(.resume, slot, expecting: step.expectError)
        case .foreground: try lifecycle(.foreground, slot, expecting: step.expectError)
        case .terminate: try lifecycle(.terminate, slot)
        case .autosave where !slot.canTakeCommands:
            // Its timer cannot fire: the process ended (its changes with it) or was stopped since the plan placed it.
            record(.note("\(slot.name) is not running: its autosave did not run"))
        case .reloadTimelines, .reloadControls:
            // The request is the system's to act on: the plan placed the reloads it runs (`ReloadSchedule`).
            guard slot.canTakeCommands else {
                let what = if case .reloadControls = step.step { "control" } else { "timeline" }
                throw failure("it asks for a \(what) reload but is not running; launch it first", process: slot.name)
            }
        case .toggle(let id, let property, .control):
            return try toggleFromControl(id, property, step: step, on: slot)
        default:
            guard let command = command(for: step.step, on: slot) else {
                throw failure("step cannot be sent to an agent", process: slot.name)
            }
            // `deliver` ends a `hold-notifications`: what the hub held reaches the process, which handles it now.
            if step.step == .deliver, heldByFault.remove(slot.name) != nil { hub.release(slot.name) }
            // Among the children of `parallel`, real time goes on without the reply, as for a lifecycle step
            // (`RunEnvironment.answersRefreshingStepsTogether`): the refresh may wait in SQLite's busy handler
            // for a lock a sibling lets go after a `sleep`, and waiting for it held that sibling back until
            // the busy timeout. What the refresh meets, the agent records itself.
            if step.step == .deliver, runningTogether > 0, !env.answersRefreshingStepsTogether {
                _ = try write(command, to: slot, expectError: step.expectError)
                return nil
            }
            let start = time.reading()
            let reply = try perform(command, on: slot, expectError: step.expectError, timeout: timeout(for: step.step, slot))
            if step.step == .deliver { try env.waitForRefreshes(of: slot) }
            afterReply(reply, to: step.step, from: slot, sentAt: start)
            // What a control's reload reads is the value it shows until the next one.
            if case .read(let id, _, _) = step.step, rendering == slot.name, let observed = reply.observed {
                shownByControls[slot.name, default: [:]][id] = observed
            }
            return reply.error
        }
        return nil
    }

    /// Sends `command` and waits for its outcome: a check (`within`) is asked again, after whatever could
    /// change the view, until it matches or its deadline (from the first attempt) has passed; a command
    /// that yielded on another process's lock waits for it as the environment does.
    func perform(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?,
                 timeout: Swift.Duration? = nil) throws(HarnessFailure) -> AgentReply {
        if let within = command.checkWithin {
            let deadline = time.now.addingClamped(within)
            var last = within == 0
            while true {
                let reply = try send(command, to: slot, expectError: expectError, timeout: timeout, lastAttempt: last,
                                     checkDeadline: within == 0 ? nil : deadline)
                if last || reply.matched != false || reply.status != .ok { return reply }
                try env.awaitChange(of: slot, until: deadline)
                last = time.now >= deadline
            }
        }
        if runningTogether == 0, let reply = try env.performAlone(command, on: slot, expectError: expectError, timeout: timeout) {
            return reply
        }
        let reply = try send(command, to: slot, expectError: expectError, timeout: timeout, lockWaits: env.lockWaits(for: command))
        guard reply.status == .blocked else { return reply }
        return try env.waitForLock(command, on: slot, expectError: expectError)
    }

    /// Runs the children together (as the environment runs them: at once in real time, one at a time in
    /// the deterministic mode), each starting before any notification another child posts is handled: the
    /// hub holds a process's notifications until all its steps of the `parallel` are under way, as they
    /// would arrive after steps already started.
    func executeParallel(_ planned: RunPlan.PlannedStep) throws(HarnessFailure) {
        var planned = planned
        var reserved: [String: Set<String>] = [:]
        planned.children = planned.children.map { child in
            guard case .workload(let workload) = child.step.step else { return child }
            return workloadBranch(child, workload, reserved: &reserved[workload.entity, default: []])
        }
        let ordered = env.orderTogether(planned.children)
        if runningTogether == 0 {
            var written = planned.step
            written.step = .parallel(ordered.map(\.step))
            executed.append(written, executing: true)
        }
        let together = ParallelStep(children: ordered, written: planned.children, runner: self)
        for process in together.held { hub.hold(process) }
        runningTogether += 1
        defer {
            runningTogether -= 1
            for process in together.held { hub.release(process) }
            if runningTogether == 0 { executed.endStep() }
        }
        try env.runTogether(together)
    }

    // MARK: Talking to agents

    /// Sends `command` and waits for its reply; a harness failure when the agent cannot take it.
    @discardableResult
    func send(_ command: AgentCommand, to slot: ProcessSlot, expectError: ErrorKind? = nil,
              timeout: Swift.Duration? = nil, lastAttempt: Bool? = nil,
              lockWaits: LockWaitHandling? = nil, checkDeadline: UInt64? = nil) throws(HarnessFailure) -> AgentReply {
        let seq = try write(command, to: slot, expectError: expectError, lastAttempt: lastAttempt, lockWaits: lockWaits,
                            checkDeadline: checkDeadline)
        return try awaitReply(seq, from: slot, timeout: timeout ?? options.stepTimeout)
    }

    /// Writes one request line; returns its sequence number.
    func write(_ command: AgentCommand, to slot: ProcessSlot, expectError: ErrorKind?,
               lastAttempt: Bool? = nil, lockWaits: LockWaitHandling? = nil, checkDeadline: UInt64? = nil,
               holdsCommit: Bool = false) throws(HarnessFailure) -> Int {
        guard let child = slot.child else {
            let state = slot.lifecycle.state
            throw failure("it is not running\(state == .notRunning ? "" : " (\(state))"); launch it first", process: slot.name)
        }
        guard slot.canTakeCommands else {
            throw failure("it is \(slot.lifecycle.state); resume it first", process: slot.name)
        }
        try env.beforeRequest(command, lockWaits: lockWaits, to: slot)
        let seq = slot.takeSeq()
        let known = objects.rows[slot.store] ?? [:]
        let delta = known.filter { slot.sentIDs[$0.key] != $0.value }
        slot.sentIDs.merge(delta) { $1 }
        var request = AgentRequest(seq: seq, step: currentStep?.index, expectError: expectError, ids: delta, command: command)
        request.context = commandContext?.name
        request.contextAuthor = commandContext?.author
        request.contextMergePolicy = commandContext?.mergePolicy
        request.lastAttempt = lastAttempt
        request.checkDeadline = checkDeadline ?? slot.openCheckDeadline
        request.lockWaits = lockWaits
        if holdsCommit { request.holdsCommit = true }
        if heldByFault.contains(slot.name) { request.notificationsHeld = true }
        env.prepare(&request, for: slot)
        switch command.step {
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

    /// Reads replies until the one numbered `seq` (others, of fire-and-forget requests or of a command in
    /// flight beside it, are kept in `ProcessSlot.repliesAhead`).
    func awaitReply(_ seq: Int, from slot: ProcessSlot, timeout: Swift.Duration) throws(HarnessFailure) -> AgentReply {
        guard let reply = try readReply(seq, from: slot, timeout: timeout) else {
            throw failure("timed out after \(timeout) waiting for the reply to step \(currentStepText)\(stderrTail(of: slot))",
                          process: slot.name)
        }
        return reply
    }

    /// The reply numbered `seq`, or nil when none came within `timeout`.
    func readReply(_ seq: Int, from slot: ProcessSlot, timeout: Swift.Duration) throws(HarnessFailure) -> AgentReply? {
        if let reply = slot.repliesAhead.removeValue(forKey: seq) { return try accept(reply, from: slot) }
        guard let child = slot.child else { throw failure("it exited before replying", process: slot.name) }
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let line = try nextLine(from: child, of: slot, until: deadline) else { return nil }
            let reply = try decodeReply(line, from: slot)
            if reply.status == .atCommit {
                try crashInsideSave(slot)
                return AgentReply(seq: seq, status: .ok)
            }
            guard reply.seq == seq else {
                // Another command's, in flight beside this one: its own wait takes it.
                slot.repliesAhead[reply.seq] = reply
                continue
            }
            return try accept(reply, from: slot)
        }
    }

    /// `slot`'s next line by `deadline`, nil when none came. While commands of a `parallel` to other
    /// processes are in flight (the runner waits on a step it runs inline: a lifecycle change, the system's
    /// work), what they send meanwhile is read too (`answerBeside(_:)`), a millisecond at most after it came.
    private func nextLine(from child: any SupervisedProcess, of slot: ProcessSlot,
                          until deadline: ContinuousClock.Instant) throws(HarnessFailure) -> String? {
        while true {
            let beside = env.commandsInFlight(besides: slot.name)
            let left = deadline - ContinuousClock.now
            do {
                return try child.readLine(timeout: beside.isEmpty ? left : min(left, .milliseconds(1)),
                                          awaiting: "the reply to step \(currentStepText)")
            } catch SupervisorError.timedOut {
                if ContinuousClock.now >= deadline { return nil }
            } catch {
                if let death = unexpectedDeath(of: slot) { throw death }
                throw failure("\(error)\(stderrTail(of: slot))", process: slot.name)
            }
            for sent in beside { try answerBeside(sent) }
        }
    }

    /// Reads what `sent`'s process has answered, without waiting: a save that reached its COMMIT with a
    /// crash armed is killed there and then, as its process dies whatever the runner waits on (a push's save
    /// beside it waited out its busy timeout on the lock it held); any other reply is kept for its own wait.
    private func answerBeside(_ sent: ParallelStep.Sent) throws(HarnessFailure) {
        let slot = sent.slot
        // One that ended is reported by its own wait.
        guard slot.repliesAhead[sent.seq] == nil, let child = slot.child,
              let line = try? child.readLineIfReady(awaiting: "the reply to its step") else { return }
        let reply = try decodeReply(line, from: slot)
        guard reply.status == .atCommit else {
            slot.repliesAhead[reply.seq] = reply
            return
        }
        let current = currentStep
        defer { currentStep = current }
        currentStep = sent.child
        try crashInsideSave(slot)
        slot.repliesAhead[sent.seq] = AgentReply(seq: sent.seq, status: .ok)
    }

    /// `line`, read from `slot`, as a reply, which the environment takes note of (its virtual time, its
    /// notifications) before anything else.
    private func decodeReply(_ line: String, from slot: ProcessSlot) throws(HarnessFailure) -> AgentReply {
        guard let reply = try? AgentWire.decode(AgentReply.self, from: line) else {
            throw failure("unreadable reply: \(line)", process: slot.name)
        }
        env.absorb(reply, from: slot)
        return reply
    }

    /// What the runner learns from `reply`, the reply it waited for; a failure the agent could not carry.
    private func accept(_ reply: AgentReply, from slot: ProcessSlot) throws(HarnessFailure) -> AgentReply {
        learn(reply, from: slot)
        if reply.status == .ok || reply.status == .failed { slot.unsaved = reply.unsaved }
        if reply.status == .failed, let error = reply.error, error.kind == .other || error.kind == .timeout {
            throw failure(error.message, process: slot.name)
        }
        return reply
    }

    /// Records what a save committed so other agents can name the same rows.
    private func learn(_ reply: AgentReply, from slot: ProcessSlot) {
        objects.learn(reply, in: reply.store ?? slot.store)
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
        case .read(_, _, .within(let duration)), .count(_, _, _, .within(let duration)), .state(_, _, .within(let duration)),
             .results(_, _, .within(let duration)):
            extra += duration.nanos
        case .batchInsert(_, let count, _):
            // A batch as large as the language allows (a million rows) takes its time: a millisecond a
            // row is far more than SQLite needs, even in a debug build.
            extra = extra.addingReportingOverflow(UInt64(count) &* 1_000_000).partialValue
        default: break
        }
        return options.stepTimeout + .nanoseconds(Int64(clamping: extra))
    }

    /// What the runner does once a step's reply is in: a copy is verified against what was
    /// committed before the step was sent.
    func afterReply(_ reply: AgentReply, to step: Step, from slot: ProcessSlot, sentAt: UInt64) {
        if case .copyStore(let name, _) = step, reply.error == nil {
            let url = sandbox.copies.appendingPathComponent(name).appendingPathComponent("\(plan.run.store.name).sqlite")
            setAside(url, label: "copy:\(name)", store: slot.store, since: sentAt)
        }
    }

    /// Writes one request line to an agent.
    static func send(_ request: AgentRequest, to child: any SupervisedProcess) throws {
        try child.writeLine(try AgentWire.line(request))
    }
}
