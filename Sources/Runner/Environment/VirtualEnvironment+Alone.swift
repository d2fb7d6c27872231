import Agent
import Basics
import ScenarioModel
import Trace

// A write outside `parallel` in the deterministic mode. One agent acts at a time, so a step that lasts
// (a batch insert of 20,000 rows takes 100 ms) ran whole before anything that fell due meanwhile: a
// delayed notification falling due 40 ms into it was handed over after its commit, and the merge it ran
// read the batch's rows, where in real time the receiver merges beside the batch and reads the store
// as it was before it. And a write whose rows only its agent learns (a batch update's, a purge's history
// changes, a save's objects) cost a commit whatever it wrote. Such a write now holds its commit until
// its cost, its rows counted, has passed, as a write among the children of `parallel` does
// (`TogetherRun`), and what falls due meanwhile happens at its moment.

extension VirtualEnvironment {
    /// A write that commits at its end (`StepEffect.WriteLock.commits`) holds its commit until its cost has
    /// passed, its rows counted (`CostModel.held`, with the rows its reply says it wrote), and until the
    /// commit each timer of another process fires at its moment (a delayed notification, a drop window's
    /// end, a poll), and each idle process handles what was delivered to it since the write began
    /// (`handOverOverdue`), reading the store as it was. So does every save, batch update or delete and
    /// purge, whose rows only the agent learns; a batch insert, whose rows the file gives, holds only when a
    /// timer falls due within its cost. Nil otherwise: the runner sends the command as it is.
    func performAlone(_ command: AgentCommand, on slot: ProcessSlot, expectError: ErrorKind?,
                      timeout: Swift.Duration?) throws(HarnessFailure) -> AgentReply? {
        guard case .perform(let step, _) = command, step.effect.writeLock == .commits else { return nil }
        let outer = commandsUnderWay
        commandsUnderWay = { [slot.name] }
        defer { commandsUnderWay = outer }
        let sizedByAgent = step.effect.cost == .commit
        guard sizedByAgent || (nextTimer().map { $0 < time.now.addingClamped(costs.cost(of: command)) } ?? false) else { return nil }
        let began = time.now
        let timeout = timeout ?? runner.options.stepTimeout
        let seq = try runner.write(command, to: slot, expectError: expectError, lockWaits: lockWaits(for: command),
                                   holdsCommit: true)
        let reply = try runner.awaitReply(seq, from: slot, timeout: timeout)
        if reply.status == .blocked {
            commandsUnderWay = outer
            return try waitForLock(command, on: slot, expectError: expectError)
        }
        guard reply.commitHeld == true else { return reply }
        let due = (reply.virtualEnd ?? time.now).addingClamped(costs.held(command, rows: reply.heldRows ?? 0))
        try passMoments(before: due, routedSince: began) { [slot.name] }
        try advanceTime(to: Swift.max(due, time.now))
        actingAt = due
        let committed: AgentReply
        do {
            defer { actingAt = nil }
            // The write's own reply has answered its expected error, as a held write's in `parallel`.
            let commitSeq = try runner.write(.commitHeld, to: slot, expectError: nil)
            committed = try runner.awaitReply(commitSeq, from: slot, timeout: timeout)
        }
        // A process whose purge met the write's lock meanwhile gets it now.
        try retryBackgroundWaits()
        return committed
    }

    /// Before a launch's `ready` is absorbed (its end becoming the present): each timer that falls due
    /// during the launch fires at its moment, and each idle process handles what was delivered to it since
    /// the launch began, as in real time beside it. Before, an app whose delayed notification fell due
    /// 10 ms into an extension's 40 ms launch handled it only at its next step, after the launch: its
    /// refresh 44 ms after the save where real time took 13-17 ms (review 100, s62). A launch that migrates
    /// writes the store, and a launch among the children of `parallel` is `TogetherRun`'s: not these.
    func launched(_ slot: ProcessSlot, _ reply: AgentReply) throws(HarnessFailure) {
        guard runner.runningTogether == 0, let end = reply.virtualEnd, let began = launchBegan[slot.name] else { return }
        try passMoments(before: end, routedSince: began) { [slot.name] }
    }

    /// Until `end`, while writes are under way: each timer fires at its moment, and each process not
    /// `busy` with a command handles what was delivered to it once it has had it `CostModel.delivery`
    /// (`handOverOverdue`), as in real time beside the writes.
    /// With `since`, only what was routed since then is handed over (`handOverOverdue(routedSince:)`).
    func passMoments(before end: UInt64, routedSince since: UInt64? = nil, busy: () -> Set<String>) throws(HarnessFailure) {
        var passed: UInt64?
        while let moment = [nextTimer(), nextHandOver(besides: busy(), routedSince: since)].compactMap({ $0 }).min(), moment < end {
            // A moment that brought nothing about (its process could not take it) is not waited on again.
            if let passed, moment <= passed { break }
            passed = moment
            try advanceTime(to: Swift.max(moment, time.now))
            try handOverOverdue(actingAt: time.now, besides: busy(), routedSince: since)
        }
    }
}
