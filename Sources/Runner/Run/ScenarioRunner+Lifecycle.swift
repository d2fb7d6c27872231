import Agent
import Basics
import Foundation
import Notify
import ScenarioModel
import Supervisor
import Trace

extension ScenarioRunner {
    /// Feeds a lifecycle input to the process's state machine and performs the actions it returns.
    func lifecycle(_ input: LifecycleInput, _ slot: ProcessSlot) throws(HarnessFailure) {
        let actions: [LifecycleAction]
        do {
            actions = try slot.lifecycle.handle(input)
        } catch {
            throw failure(error.description, process: slot.name)
        }
        for action in actions { try perform(action, slot) }
    }

    /// A lifecycle step that the process's state refuses where the steps did not decide that state. The
    /// validator refuses every such step it can decide, and leaves a process whose store may not load
    /// (`ScenarioRun.storeMayFailToLoad`): whether it runs after a launch is the run's to know. The step
    /// then fails with the reason, a decided outcome of this run (a launch of a process whose store
    /// loaded after all, say), not an undecided one. Nil when the step can be carried out, or when the
    /// steps decided the state (a refusal then is the harness's own failure).
    func undecidedRefusal(of step: Step, _ slot: ProcessSlot) -> ErrorRecord? {
        let input: LifecycleInput
        switch step {
        case .launch: input = .launch
        case .exit: input = .exit
        case .crash: input = .crash
        case .background: input = .background
        case .suspend: input = .suspend
        case .resume: input = .resume
        case .foreground: input = .foreground
        case .terminate: input = .terminate
        default: return nil
        }
        guard plan.run.storeMayFailToLoad(for: slot.process) else { return nil }
        var trial = slot.lifecycle
        do {
            _ = try trial.handle(input)
            return nil
        } catch {
            return ErrorRecord(kind: .other, message: "\(error.description): its store may not have loaded at its launch, "
                + "so the file left whether it runs to the run, and this run's answer refuses the step")
        }
    }

    /// `suspend`: ask what the process holds open, then stop it (iOS would answer a held lock with 0xdead10cc).
    func suspend(_ slot: ProcessSlot) throws(HarnessFailure) {
        var lock: LockKind?
        if slot.canTakeCommands {
            // What was delivered while it ran is handled before it stops (the request waits for it), as
            // an app's run loop handles its callbacks before iOS suspends it.
            lock = try send(.lockState, to: slot).lock
        }
        try lifecycle(.suspend, slot)
        record(.lifecycle(LifecycleChange(
            state: .suspended, pid: pid(of: slot), holdsLock: lock != nil, lock: lock)), as: slot.name)
    }

    private func perform(_ action: LifecycleAction, _ slot: ProcessSlot) throws(HarnessFailure) {
        switch action {
        case .spawn:
            if let error = try launchAgent(slot) {
                try storeDidNotLoad(error, slot)
            } else {
                try lifecycle(.ready, slot)
            }
        case .notifyHub(let state):
            hub.setLifecycle(Self.hubState(state), for: slot.name)
            if state != .suspended && state != .launching {
                // What it had not saved (only a SwiftData agent reports it: `reportedUnsaved`) ends with it
                // when it exits or is terminated; not what a crash step kills on purpose, nor what the
                // run's end closes.
                let lost = state == .exited || state == .terminated ? slot.unsaved : nil
                record(.lifecycle(LifecycleChange(state: state, pid: pid(of: slot), unsaved: lost)), as: slot.name)
            }
            if !state.isRunning { slot.unsaved = nil }
            if state == .background, slot.canTakeCommands { try sendCarryingExpectation(.enterBackground, to: slot) }
        case .sendSignal(let signal):
            try deliver(signal, to: slot)
        case .sendExitRequest:
            try requestExit(slot)
        case .runRefreshOnActivation:
            if slot.canTakeCommands { try sendCarryingExpectation(.becomeActive, to: slot) }
        case .reportUnexpectedExit(let status):
            throw failure("it exited unexpectedly (\(status))\(stderrTail(of: slot))", process: slot.name)
        }
    }

    /// Sends the command a lifecycle step makes the process run (its activation's or backgrounding's
    /// refresh), with the error the step expects: the agent then counts an error of that kind as expected.
    /// Among the children of `parallel`, real time goes on without its reply (`RunEnvironment`'s
    /// `answersRefreshingStepsTogether`): it is read, and passed over, before the process's next request.
    private func sendCarryingExpectation(_ command: AgentCommand, to slot: ProcessSlot) throws(HarnessFailure) {
        let expected = lifecycleExpectError
        if expected != nil { lifecycleExpectationSent = true }
        if runningTogether > 0 && !env.answersRefreshingStepsTogether {
            _ = try write(command, to: slot, expectError: expected)
            return
        }
        _ = try send(command, to: slot, expectError: expected)
    }

    /// Runs a lifecycle step that expects an error (`expect-error:`): the activation or backgrounding it
    /// causes carries the expectation; a step that ran no such command cannot have failed as expected,
    /// which is recorded as the unmet expectation it is.
    func lifecycle(_ input: LifecycleInput, _ slot: ProcessSlot, expecting expected: ErrorKind?) throws(HarnessFailure) {
        guard let expected else { return try lifecycle(input, slot) }
        lifecycleExpectError = expected
        lifecycleExpectationSent = false
        defer { lifecycleExpectError = nil }
        try lifecycle(input, slot)
        if !lifecycleExpectationSent {
            record(.check(CheckRecord(kind: .expectError, subject: expected.rawValue, passed: false, withinNanos: 0)), as: slot.name)
        }
    }

    /// Starts the agent with its config and waits until it has opened its store, the other branches of a
    /// `parallel` going on meanwhile when `besideSiblings` (see `readyLine(of:besideSiblings:)`). Returns
    /// the error of a store that did not load (the agent has then ended), nil once it is ready.
    func spawn(_ slot: ProcessSlot, besideSiblings: Bool) throws(HarnessFailure) -> ErrorRecord? {
        let config = agentConfig(for: slot)
        do {
            (slot.child, slot.pooled) = try env.startAgent(config, for: slot)
        } catch {
            throw failure("cannot start the agent: \(error)", process: slot.name)
        }
        slot.launches += 1
        slot.sentIDs = [:]
        let line: String
        do {
            line = try readyLine(of: slot, besideSiblings: besideSiblings)
        } catch {
            slot.child?.kill()
            throw error
        }
        let decoded = try? AgentWire.decode(AgentReply.self, from: line)
        if let decoded, decoded.status == .failed, let error = decoded.error, error.kind == .storeLoadFailed {
            // A standby agent goes on waiting for its next process; a spawned one has exited.
            if slot.pooled, let pool = options.agentPool, let child = slot.child {
                pool.giveBack(child)
            } else {
                slot.child?.kill()
            }
            slot.child = nil
            env.absorb(decoded, from: slot)
            return error
        }
        guard let reply = decoded, reply.status == .ready else {
            slot.child?.kill()
            slot.child = nil
            throw failure("the agent did not start: \(line)", process: slot.name)
        }
        // A launch that migrated wrote the store: what others did meanwhile would read its rows.
        if besideSiblings { try env.launched(slot, reply) }
        env.absorb(reply, from: slot)
        // Its store did not load, and it runs on an empty one of its own (`on-load-failure: in-memory`, the
        // ready reply naming that store): a launch that expects `store-load-failed` failed as it said.
        if reply.store != nil, lifecycleExpectError == .storeLoadFailed, currentStep?.step.process == slot.name {
            lifecycleExpectationSent = true
        }
        record(.lifecycle(LifecycleChange(state: .launching, pid: pid(of: slot))), as: slot.name)
        return nil
    }

    /// The agent's first line, once it has opened its store (or failed to). Among the children of
    /// `parallel` in real time, the other branches go on meanwhile (`RunEnvironment.whileLaunching`),
    /// unless the launch needs the write lock (`besideSiblings` false: it migrates the store), which
    /// neither mode lets wait for a sibling to let go (Docs/Runner.md).
    private func readyLine(of slot: ProcessSlot, besideSiblings: Bool) throws(HarnessFailure) -> String {
        let awaiting = "the agent to open its store"
        guard let child = slot.child else { throw failure("it exited before it opened its store", process: slot.name) }
        let beside = besideSiblings && env.launchesBeside
        let deadline = ContinuousClock.now + options.launchTimeout
        while true {
            let slice = beside ? Swift.min(.milliseconds(1), deadline - ContinuousClock.now) : options.launchTimeout
            do {
                return try child.readLine(timeout: slice, awaiting: awaiting)
            } catch SupervisorError.timedOut where beside {
                if ProcessGuard.interruption != nil { throw HarnessFailure(message: "interrupted") }
                guard ContinuousClock.now < deadline else {
                    let error = SupervisorError.timedOut(process: slot.name, awaiting: awaiting, after: options.launchTimeout)
                    throw failure("\(error)\(stderrTail(of: slot))", process: slot.name)
                }
                try env.whileLaunching(slot)
            } catch {
                throw failure("\(error)\(stderrTail(of: slot))", process: slot.name)
            }
        }
    }

    private func deliver(_ signal: ProcessSignal, to slot: ProcessSlot) throws(HarnessFailure) {
        guard let child = slot.child else { return }
        switch signal {
        case .kill:
            child.kill()
            slot.child = nil
        default:
            do {
                try child.signal(signal)
            } catch {
                throw failure("cannot signal it: \(error)", process: slot.name)
            }
        }
    }

    /// `exit`: the agent closes its store and exits; a hung one is killed after the timeout.
    private func requestExit(_ slot: ProcessSlot) throws(HarnessFailure) {
        guard let child = slot.child else { return }
        defer { slot.child = nil }
        do {
            let seq = slot.takeSeq()
            var request = AgentRequest(seq: seq, command: .exit)
            env.prepare(&request, for: slot)
            try Self.send(request, to: child)
            if slot.pooled, let pool = options.agentPool {
                // A standby agent answers and waits for its next process.
                _ = try awaitReply(seq, from: slot, timeout: options.stepTimeout)
                pool.giveBack(child)
            } else {
                _ = try child.wait(timeout: options.stepTimeout)
            }
        } catch {
            child.kill()
            throw failure("it did not exit cleanly: \(error)", process: slot.name)
        }
    }

    /// The armed `crash ... during: save` point was reached: kill the process there.
    func crashInsideSave(_ slot: ProcessSlot) throws(HarnessFailure) {
        try lifecycle(.crash, slot)
        verifyAfterCrash(slot)
    }

    /// An agent that died while the runner talked to it, though no step killed it (killed from outside
    /// the run, or exited on its own): recorded as such, its store checked for lost commits like after a
    /// crash, and the run ended with a harness error that says what happened. Nil when it still runs, or
    /// when the invocation was interrupted (which killed it).
    func unexpectedDeath(of slot: ProcessSlot) -> HarnessFailure? {
        guard ProcessGuard.interruption == nil, let child = slot.child,
              let status = try? child.wait(timeout: .milliseconds(500)) else { return nil }
        slot.child = nil
        hub.setLifecycle(.notRunning, for: slot.name)
        let what: String
        switch status {
        case .killed:
            record(.lifecycle(LifecycleChange(state: .killed, pid: env.pid(of: child))), as: slot.name)
            what = "was \(status) from outside the run (no step killed it)"
        case .exited(let code):
            record(.lifecycle(LifecycleChange(state: .exited, pid: env.pid(of: child))), as: slot.name)
            what = "exited on its own with code \(code) (no step asked it to)"
        }
        if let url = try? storeFile(storeLocation(of: slot)) {
            verify(url, label: slot.store, reason: .killed, store: slot.store)
        }
        return failure("it \(what); its store was checked for lost commits\(stderrTail(of: slot))", process: slot.name)
    }

    /// The process id for the trace; none in the deterministic mode, where it would differ from run to run.
    func pid(of slot: ProcessSlot) -> Int32? {
        slot.child.flatMap(env.pid(of:))
    }

    /// After a crash: is every transaction committed before it still in the store?
    func verifyAfterCrash(_ slot: ProcessSlot) {
        guard let url = try? storeFile(storeLocation(of: slot)) else { return }
        verify(url, label: slot.store, reason: .crash, store: slot.store)
    }

    static func hubState(_ state: LifecycleState) -> HubProcessState {
        switch state {
        case .launching, .active: .active
        case .background: .background
        case .suspended: .suspended
        case .notRunning, .exited, .crashed, .terminated, .killed: .notRunning
        }
    }
}
