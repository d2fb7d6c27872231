import Agent
import Basics
import ScenarioModel
import Trace

// The deterministic mode's choices, each made by the strategy and written into the executed steps so
// that the run replays as written: a process handling the notifications waiting for it between two other
// steps (`deliver`), taking its next steps before them (`hold-notifications`, placed where the hold
// began, then `deliver` where they are handled), and the order of `parallel` children.

extension VirtualEnvironment {
    /// Before a step: what is due runs; the step's process handles what waits for it first, or (late
    /// notifications) takes the step first; every other running process handles what waits for it now
    /// or later, as the strategy chooses, unless the step acts so late that in real time it has handled it
    /// by then (`CostModel.delivery`).
    func beforeStep(_ step: ScenarioStep) throws(HarnessFailure) {
        try fireDueTimers()
        try retryBackgroundWaits()
        let process = step.process.flatMap { runner.slots[$0] }.flatMap { $0.canTakeCommands ? $0 : nil }
        if let process { decideHold(process, before: step.step) }
        if let process { try beforeEnding(process, step) }
        if case .parallel(let children) = step.step {
            // Children start together and make no choice: what the strategy held for them arrives first.
            for name in Set(children.flatMap(\.processesInvolved)).sorted() { release(name, before: step.step) }
        }
        // A process the file holds (`hold-notifications`) gets nothing before its own `deliver`: no choice
        // is made for it, and no `deliver` written that would end the file's hold on replay.
        for slot in runner.orderedSlots where slot !== process && slot.canTakeCommands && scripted.hasPending(for: slot.name)
            && !runner.heldByFault.contains(slot.name) {
            // What was routed longer than `CostModel.delivery` before the step acts has been handled by then,
            // unless the process waits in SQLite's busy handler (its lock wait hands it over when it ends).
            let routed = scripted.oldestRouting(for: slot.name) ?? time.now
            let acting = latestAct(of: step)
            if acting <= routed.addingClamped(costs.delivery) || backgroundWaits[slot.name] != nil {
                guard dependsOnDelivery(step.step, to: slot.name) else { continue }
                let odds = backgroundWaits[slot.name] == nil ? lateOdds(of: slot.name, routed: routed, before: step) : nil
                let point = ChoicePoint(kind: .deliverEarly, count: 2, actors: ["runner", slot.name],
                                        weights: odds.map { [$0.late, 1_000_000 - $0.late] })
                guard choose(point) == 1 else {
                    if let odds { leftLate[slot.name] = (routed, odds.unconditional) }
                    continue
                }
            }
            let wasHeld = holding.removeValue(forKey: slot.name) != nil
            runner.executed.append(ScenarioStep(location: .schedule, process: slot.name, step: .deliver))
            try runner.send(.handleNotifications, to: slot, lockWaits: .yield)
            if wasHeld { runner.record(.note("\(slot.name) handles the notifications held back from it"), as: slot.name) }
        }
    }

    /// In millionths, how often real time has not handed the delivery routed at `routed` to `process` by the
    /// time `step` first acts (a write: its commit): `CostModel.lateDelivery`, and given that it was left
    /// past an earlier step already, as often as a delivery late then is late now. Nil where real time's
    /// odds are not known: a step that acts on nothing itself (a `sleep`, a `clock` advance, a workload),
    /// chosen uniformly. (A process in SQLite's busy handler, and one a step ends, are chosen uniformly too:
    /// its wait ends when it ends; a kill acts at once, and real time shows both.)
    ///
    /// A handling that writes (a history merge, then the process's purge) is early only if its write is:
    /// before a step that takes the write lock and keeps it (`begin-write`), the purge must come before
    /// the lock is taken, a merge's cost (`CostModel.merge`) after the notification arrives. Weighed by the
    /// merge's read alone, an app merged and purged before an extension's `begin-write` on nearly every
    /// seed; in real time its purge met the extension's lock in 8 of 8 runs (review 95, a07 and m10).
    private func lateOdds(of process: String, routed: UInt64, before step: ScenarioStep) -> (late: UInt64, unconditional: UInt64)? {
        let own = costs.cost(of: step.step, cold: isCold(step.process, step.step))
        guard let first = own > 0 ? own : firstAct(of: step.step) else { return nil }
        let done = time.now.addingClamped(first)
        var gap = done > routed ? done - routed : 0
        if step.step.effect.writeLock == .holds, handlingWrites(process) {
            // The lock is taken as soon as the request is in; the purge writes after the merge.
            let locked = time.now.addingClamped(costs.request), writes = routed.addingClamped(costs.merge)
            gap = Swift.min(gap, locked > writes ? locked - writes : 0)
        }
        let late = costs.lateDelivery(after: gap)
        guard let earlier = leftLate[process], earlier.routed == routed else { return (late, late) }
        return (earlier.odds == 0 ? 0 : Swift.min(late, earlier.odds).multipliedClamped(by: 1_000_000) / earlier.odds, late)
    }

    /// Whether handling a notification makes `process` write: a history merge followed by a purge.
    private func handlingWrites(_ process: String) -> Bool {
        runner.slots[process]?.process.settings.purgesAfterMerge ?? false
    }

    /// How long after it starts a `parallel` or a list of steps first acts: its earliest child's, or first
    /// step's, cost; nil when that acts on nothing itself.
    private func firstAct(of step: Step) -> UInt64? {
        switch step {
        case .parallel(let children): children.compactMap { firstAct(of: $0.step) }.min()
        case .sequence(let children): children.first.flatMap { firstAct(of: $0.step) }
        default: Optional(costs.cost(of: step)).flatMap { $0 > 0 ? $0 : nil }
        }
    }

    /// Before a step that ends `process` (the hub forgets what waits for a process that has ended): asked
    /// to `exit`, it has handled what reached it (its run loop serves its inbox before it reads the
    /// request, in real time); killed (`terminate`, `crash`), it has if the step acts later than
    /// `CostModel.delivery` after the delivery, and either way when it acts sooner, as the strategy chooses.
    private func beforeEnding(_ process: ProcessSlot, _ step: ScenarioStep) throws(HarnessFailure) {
        let name = process.name
        guard [.exit, .terminate, .crash].contains(step.step), holding[name] == nil, !runner.heldByFault.contains(name),
              let routed = scripted.oldestRouting(for: name) else { return }
        if step.step != .exit && latestAct(of: step) <= routed.addingClamped(costs.delivery) {
            guard choose(ChoicePoint(kind: .deliverEarly, count: 2, actors: ["runner", name])) == 1 else { return }
            runner.executed.append(ScenarioStep(location: .schedule, process: name, step: .deliver))
        }
        try runner.send(.handleNotifications, to: process)
    }

    /// Hands what waits for each running process but `waiting` over now, with no choice: while the runner
    /// waits (a `sleep` longer than a request, a check's `within`), a process with nothing to do handles a
    /// delivered notification within a millisecond or two in real time, whatever the schedule chose at
    /// the steps before. Without this a 5 s `sleep` left an app's history merge undone, and the purge
    /// another process ran after it expired the app's token, which no real-time run does. Only outside
    /// `parallel` (`handOverOverdue` is its counterpart there). Nothing is written for it: a replay as
    /// written hands the same over at the same moment, by the same rule.
    func handOverWhileWaiting(besides waiting: String? = nil) throws(HarnessFailure) {
        guard runner.runningTogether == 0 else { return }
        for slot in idleWithDeliveries(besides: waiting.map { [$0] } ?? []) { try handOver(to: slot) }
    }

    /// Among the children of `parallel`, before a child that acts at `acting`: each process none of whose
    /// commands is under way (`busy`) handles what was delivered to it longer than `CostModel.delivery`
    /// before then, as it has in real time by then. An app's merge of its own save in one branch waited
    /// past a sibling branch's 300 ms sleep and the save after it, and merged a change no notification
    /// announced. A replay as written does the same (nothing is written for it).
    /// With `since`, only a process whose deliveries were all routed since then (the others' the schedule
    /// has placed already).
    func handOverOverdue(actingAt acting: UInt64, besides busy: Set<String>, routedSince since: UInt64? = nil) throws(HarnessFailure) {
        for slot in idleWithDeliveries(besides: busy) {
            guard let routed = scripted.oldestRouting(for: slot.name), acting > routed.addingClamped(costs.delivery),
                  since.map({ routed >= $0 }) ?? true else { continue }
            try handOver(to: slot)
        }
    }

    /// The first moment at which `handOverOverdue(actingAt:besides:)` hands something over: just after a
    /// process of those it would serve has had its oldest delivery for `CostModel.delivery`.
    func nextHandOver(besides busy: Set<String>, routedSince since: UInt64? = nil) -> UInt64? {
        idleWithDeliveries(besides: busy).compactMap { slot in
            scripted.oldestRouting(for: slot.name).flatMap { routed in
                since.map { routed >= $0 } ?? true ? routed.addingClamped(costs.delivery).addingClamped(1) : nil
            }
        }.min()
    }

    /// The running processes but `busy` with deliveries waiting, and free to take them: no fault of the
    /// file holds them back, nor the strategy (its hold is written as a fault, which a replay keeps until
    /// the `deliver` the schedule writes), and no lock wait keeps them in SQLite's busy handler.
    private func idleWithDeliveries(besides busy: Set<String>) -> [ProcessSlot] {
        runner.orderedSlots.filter { slot in
            !busy.contains(slot.name) && !starting.contains(slot.name) && slot.canTakeCommands && !runner.heldByFault.contains(slot.name)
                && holding[slot.name] == nil && backgroundWaits[slot.name] == nil && scripted.hasPending(for: slot.name)
        }
    }

    /// Hands what waits for `slot` over now.
    private func handOver(to slot: ProcessSlot) throws(HarnessFailure) {
        try runner.send(.handleNotifications, to: slot, lockWaits: .yield)
    }

    /// Whether handling the notifications waiting for `process` before `step` rather than after it can
    /// change what either does: `step` touches the store or `process` itself (a read of one's own view in
    /// memory, or an edit not saved, commutes with another process's refresh). The choice is made only
    /// where it can matter, so that enumerating schedules tries each distinct order once.
    func dependsOnDelivery(_ step: Step, to process: String) -> Bool {
        // An edit, or a rollback of edits, stays in the process's memory.
        switch step.unsavedChanges {
        case .made, .discarded: return false
        case .saved, .lost, .kept: break
        }
        switch step {
        case .refreshAll, .refresh, .state:
            return false
        case .read(_, _, .now), .count(_, _, nil, .now), .results(_, _, .now):
            return false
        default:
            return true
        }
    }

    /// At a step of `slot`'s process with notifications waiting: hand them over first (0) or hold them
    /// past the step (1), within the plan's bound and for steps a late notification can race.
    private func decideHold(_ slot: ProcessSlot, before step: Step) {
        let name = slot.name
        if runner.heldByFault.contains(name) {
            // The file holds the process: no choice until its own `deliver`, which hands everything over
            // (the strategy's hold included, with no `deliver` of the schedule's written before it).
            if step == .deliver { holding[name] = nil }
            return
        }
        guard scripted.hasPending(for: name) || holding[name] != nil else { return }
        let steps = holding[name] ?? 0
        if lateNotifications > steps, Self.canRaceNotifications(step) {
            let point = ChoicePoint(kind: .holdPastStep, count: 2, actors: [name, "runner"])
            if choose(point) == 1 {
                if holding[name] == nil, let mark = scripted.oldestMark(for: name) {
                    runner.executed.insert(ScenarioStep(location: SourceLocation.schedule, process: nil,
                                                        step: .fault(.holdNotifications(process: name))), before: mark)
                }
                holding[name] = steps + 1
                return
            }
        }
        release(name, before: step)
    }

    /// Ends the strategy's hold on `process`: what waits is handed over with its next request, written as
    /// a `deliver` step before the step about to run.
    private func release(_ process: String, before step: Step) {
        guard holding.removeValue(forKey: process) != nil else { return }
        runner.executed.append(ScenarioStep(location: SourceLocation.schedule, process: process, step: .deliver))
        runner.record(.note("\(process) handles the notifications held back from it"), as: process)
    }

    /// Whether a notification arriving after `step` rather than before it is a race the step can lose: a
    /// step of the process's own that reads or writes (not a lifecycle change, which handles what was
    /// delivered first, and not a check that waits, which handles what arrives while it waits).
    static func canRaceNotifications(_ step: Step) -> Bool {
        switch step {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver,
             .push, .reloadTimelines, .reloadControls, .reload, .sleep, .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore, .appUpdate:
            return false
        case .read(_, _, .within(let duration)), .count(_, _, _, .within(let duration)), .state(_, _, .within(let duration)),
             .results(_, _, .within(let duration)):
            return duration.nanos == 0
        default:
            return true
        }
    }

    /// The processes a child of `parallel` involves: its own, or those of the steps it holds.
    static func processes(of child: RunPlan.PlannedStep) -> Set<String> {
        child.step.process.map { [$0] } ?? child.step.processesInvolved
    }

    /// The order in which `children` run: each next one chosen among the branches whose next step can act
    /// before every other branch's next step must have acted (a sequence's steps keep their order,
    /// interleaved with the other branches'; any other child is a branch of one step). A step starts after
    /// its branch's steps before it have taken what they cost (`CostModel.cost(of:)`: a launch 40 ms, a
    /// save a few) and its sleeps have passed, and acts between `settle` (a batch insert builds its rows
    /// first) and `lead` after its start, so a branch that launches an extension and saves cannot save
    /// before a sibling's next step a millisecond on, and a save cannot wait for a batch insert still
    /// building its rows, which real time never does; steps whose spans overlap go either way.
    func orderTogether(_ children: [RunPlan.PlannedStep]) -> [RunPlan.PlannedStep] {
        var left = ParallelStep.branches(of: children)
        // When each branch's next step starts, after the parallel began. A `sleep` itself is placed at its
        // end (running it moves virtual time on).
        var elapsed = [UInt64](repeating: 0, count: left.count)
        func start(_ b: Int) -> UInt64 {
            guard !parallelAsWritten, case .sleep(let duration) = left[b][0].step.step else { return elapsed[b] }
            if let pace = left[b][0].paceOffset { return Swift.max(elapsed[b], pace) }
            return elapsed[b].addingClamped(duration.nanos)
        }
        var order: [RunPlan.PlannedStep] = []
        // Whether each branch's first step has been placed. Real time takes the branches' first steps in the
        // order written: it sends commands, and runs the other steps (a lifecycle change, a push, an App
        // Intent's step) one at a time, in that order. A step that waits for every command in flight (an
        // App Intent's, a control step) also holds back the branches written after it until it runs: it
        // never runs before a command written before it, nor after a branch written after it started.
        var begun = [Bool](repeating: false, count: left.count)
        func isSleepHead(_ b: Int) -> Bool {
            if case .sleep = left[b][0].step.step { true } else { false }
        }
        func waitsForAll(_ b: Int) -> Bool {
            !isSleepHead(b) && ParallelStep.waitsForEveryCommand(left[b][0], runner: runner)
        }
        func runsInline(_ b: Int) -> Bool {
            !isSleepHead(b) && (!left[b][0].step.step.isPerformedByProcess || waitsForAll(b))
        }
        // Processes whose next command is their first since their launch (before the parallel, or in a branch).
        var launched = cold
        func isCold(_ b: Int) -> Bool {
            let step = left[b][0].step
            return step.process.map { launched.contains($0) } ?? false && step.step.isPerformedByProcess
        }
        // The branches whose first step real time sends in its first pass over them, before any later step
        // of a branch runs: a command of a process no branch written before it starts with, after no branch
        // whose first step waits for every command. One that starts inline before it (a lifecycle change, a
        // push, a request to the system) runs first, and real time then goes on with the branches after it.
        let heads = left.map { $0[0] }
        let firstPass: Set<Int> = Set(heads.indices.filter { h in
            let own = Self.processes(of: heads[h])
            guard heads[h].step.step.isPerformedByProcess, !ParallelStep.waitsForEveryCommand(heads[h], runner: runner) else { return false }
            if case .sleep = heads[h].step.step { return false }
            return heads[..<h].allSatisfy { head in
                if case .sleep = head.step.step { return true }
                return !ParallelStep.waitsForEveryCommand(head, runner: runner) && Self.processes(of: head).isDisjoint(with: own)
            }
        }.map { heads[$0].index })
        func unsentFirst(_ b: Int) -> Bool { !begun[b] && firstPass.contains(left[b][0].index) }
        while left.count > 1 {
            let starts = left.indices.map(start)
            // Each next step acts somewhere in [start + settle, start + lead]: one that can act before the
            // first of them must have acted may run first (a write's lock is taken when it acts).
            let spans = left.indices.map { b -> (from: UInt64, to: UInt64) in
                let step = left[b][0].step.step
                if parallelAsWritten { return (starts[b], starts[b]) }
                // The system's work (a push, a widget's reload) begins when its branch reaches it: real time
                // runs it inline then, the others held back until it is done; its launch is no window.
                switch step {
                case .push, .reload: return (starts[b], starts[b])
                default: break
                }
                return (starts[b].addingClamped(costs.settle(of: step)), starts[b].addingClamped(costs.lead(of: step, cold: isCold(b))))
            }
            // Steps of one process keep the order written: real time sends a branch's step only once no
            // earlier branch's step of that process waits, and a process takes one request at a time (a
            // `suspend` written beside its process's own save runs after the save, never before it).
            let allowed = left.indices.filter { b in
                let own = Self.processes(of: left[b][0])
                guard !left[..<b].contains(where: { !Self.processes(of: $0[0]).isDisjoint(with: own) }) else { return false }
                // A branch that begins with a `sleep` has begun: real time starts its timer and goes on.
                if waitsForAll(b), left.indices.prefix(b).contains(where: { !begun[$0] && !isSleepHead($0) }) { return false }
                // A branch that starts inline runs after the branches written before it have started (real
                // time sends their commands, or runs their inline steps, first).
                if !begun[b], runsInline(b), left.indices.prefix(b).contains(where: { (!begun[$0] && runsInline($0)) || unsentFirst($0) }) {
                    return false
                }
                return begun[b] || !left.indices.prefix(b).contains { !begun[$0] && waitsForAll($0) }
            }
            // A later step run inline (a reload's, a lifecycle change) comes after every first command real time
            // sends in its first pass, which acts meanwhile as the inline step runs; unless that command may not
            // go yet itself (its process's step written before it comes first).
            let unsent = Set(left.indices.filter { unsentFirst($0) && allowed.contains($0) })
            let eligible = unsent.isEmpty ? allowed : allowed.filter { !(begun[$0] && runsInline($0)) }
            let until = eligible.map { spans[$0].to }.min() ?? 0
            let ready = eligible.filter { spans[$0].from < until || spans[$0].to == until }
            var pick = ready[0]
            if ready.count > 1 {
                let point = ChoicePoint(kind: .parallelOrder, count: ready.count, actors: ready.map { left[$0][0].step.process ?? "runner" })
                pick = ready[choose(point)]
            }
            elapsed[pick] = start(pick).addingClamped(parallelAsWritten ? 0 : costs.cost(of: left[pick][0].step.step, cold: isCold(pick)))
            if let process = left[pick][0].step.process {
                if case .launch = left[pick][0].step.step { launched.insert(process) }
                else if left[pick][0].step.step.isPerformedByProcess { launched.remove(process) }
            }
            order.append(left[pick].removeFirst())
            begun[pick] = true
            if left[pick].isEmpty {
                left.remove(at: pick)
                elapsed.remove(at: pick)
                begun.remove(at: pick)
            }
        }
        return order + (left.first ?? [])
    }
}
