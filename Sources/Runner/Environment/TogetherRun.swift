import Agent
import Basics
import ScenarioModel
import Trace

/// One `parallel` step run in the deterministic mode, where one agent acts at a time.
///
/// The children run in the order the strategy picked (`VirtualEnvironment.orderTogether`), each starting
/// before any notification another posts is handled (the runner holds them back for the step). What
/// real time overlaps is kept overlapping by three kinds of pending child:
/// - **A write holds its commit** (`committing`): a save or batch operation leaves its transaction open,
///   holding the store's write lock, until its cost has passed in virtual time, so a sibling that starts
///   meanwhile meets the lock, and a read meanwhile sees the store as it was, as in real time. Whether a
///   sibling starts meanwhile or once the write has committed is the strategy's choice
///   (`mayStartAfterCommits`).
/// - **A command that met a lock waits** (`waiting`): it changed nothing, and is asked again after each
///   step of the others until the holder lets go or its busy timeout passes with the lock still held
///   (then it fails with `busy`, a timeout of 0 at once).
/// - **A check with `within:` that has not matched** (`checking`) is asked again after each step, once its
///   process is not busy with another branch's command, which may start between its attempts.
/// - **A launch lasts what it costs** (`launching`): the process starts and opens its store at once, and
///   is ready when its launch has passed in virtual time; until then its branch's next step, and its
///   other steps, wait, while the siblings act, as in real time, where an extension starting delays no
///   other process.
///
/// A child waits (`deferred`) while the step before it in its branch is pending, or while a process it
/// involves is busy with another: a sequence's steps run each after the one before it is done, and a
/// process takes one request at a time, as in real time. An App Intent's step, or a control step, waits
/// for every command in flight, as real time runs it (`ParallelStep.mayRunInline`). What is pending when every child has started is
/// carried to its end in virtual time: held writes commit, waits give up at their timeout, checks are
/// asked again when something could change their view.
final class TogetherRun {
    private unowned let env: VirtualEnvironment
    private let step: ParallelStep
    private var runner: ScenarioRunner { env.runner }
    private var now: UInt64 { env.time.now }

    private var waiting: [(sent: ParallelStep.Sent, deadline: UInt64)] = []
    /// When what was due among the children beside a sibling's `sleep` was last carried out.
    private var settled: UInt64?
    /// The processes whose waiting command waits behind their own refresh's lock wait (its deadline).
    private var behindRefresh: Set<String> = []
    private var checking: [ParallelStep.Sent] = []
    private var committing: [(sent: ParallelStep.Sent, due: UInt64)] = []
    private var launching: [(child: RunPlan.PlannedStep, due: UInt64)] = []
    /// Children that could not start yet, in order, each with its position among the children.
    private var deferred: [(child: RunPlan.PlannedStep, position: Int)] = []
    /// When the parallel began.
    private let began: UInt64
    /// When each branch's last finished step ended (the parallel's start at first): a branch's `sleep`
    /// ends that long after it, as a timer of that branch, whatever the others ran meanwhile.
    private var branchEnd: [Int: UInt64] = [:]
    /// What each `sleep` child (by position) waited in virtual time, written out so a replay as written
    /// waits as much.
    private(set) var slept: [Int: UInt64] = [:]
    /// How long each child (by position) was held back by the strategy until siblings' writes committed
    /// (`mayStartAfterCommits`), written out as a `sleep` before it so a replay as written waits as much,
    /// and the process whose notifications stay held until it is under way, if any.
    private(set) var delays: [Int: (nanos: UInt64, held: String?)] = [:]

    init(_ step: ParallelStep, in env: VirtualEnvironment) {
        self.env = env
        self.step = step
        began = env.time.now
    }

    /// Runs every child, then carries what is pending to its end.
    func run() throws(HarnessFailure) {
        let outer = env.lockDeadlines
        // A sibling's `sleep` passes through the moments a held write commits, a wait gives up, a check's
        // deadline comes (its last attempt is made then, not after the sleep), and an idle process has had
        // a delivery long enough to have handled it (a delayed notification falling due during the sleep).
        // Catching up beside the system's work starts nothing new: no check is asked, nothing handed over.
        // A check's deadline or a delivery due by the last settling was settled then (or cannot be until
        // its process is free): only a later one is a moment.
        env.lockDeadlines = (next: { [unowned self] in
                                 let underWay = waiting.map(\.deadline) + committing.map(\.due) + launching.map(\.due)
                                 guard !env.catchingUp else { return underWay.min() }
                                 let busy = busyWithCommands
                                 let checks = checking.filter { !busy.contains($0.slot.name) }.compactMap(\.checkDeadline)
                                 let moments = (checks + [env.nextHandOver(besides: busy)].compactMap { $0 })
                                     .filter { moment in settled.map { moment > $0 } ?? true }
                                 return (underWay + moments).min()
                             },
                             expire: { [unowned self] () throws(HarnessFailure) in
                                 try commitDue(by: now)
                                 try launchesDone(by: now)
                                 try retryWaiting(onlyExpired: true)
                                 guard !env.catchingUp else { return }
                                 try env.handOverOverdue(actingAt: now, besides: busyWithCommands)
                                 try recheck()
                                 settled = now
                             })
        let outerCommands = env.commandsUnderWay
        env.commandsUnderWay = { [unowned self] in busyWithCommands }
        defer {
            env.lockDeadlines = outer
            env.commandsUnderWay = outerCommands
        }
        for (position, child) in step.children.enumerated() {
            try awaitCommits(before: child)
            try mayStartAfterCommits(child, position: position)
            try start(child, position: position)
        }
        try drain()
    }

    // MARK: Who may start

    private func branch(of child: RunPlan.PlannedStep) -> Int? { step.branchOf[child.index] }

    private func isSleep(_ child: RunPlan.PlannedStep) -> Bool {
        if case .sleep = child.step.step { true } else { false }
    }

    /// Whether `pending` holds `child` back: one branch, or a process in common.
    private func holdsBack(_ pending: RunPlan.PlannedStep, _ child: RunPlan.PlannedStep) -> Bool {
        (branch(of: pending) != nil && branch(of: pending) == branch(of: child))
            || !VirtualEnvironment.processes(of: pending).isDisjoint(with: VirtualEnvironment.processes(of: child))
    }

    /// A child held back by a write holding its commit starts once it has committed: its cost is known,
    /// and the strategy's order already placed the child after it (`VirtualEnvironment.orderTogether`).
    /// Time passes to that commit, committing what is due on the way. A `sleep` is a timer of its branch
    /// and is never held back.
    private func awaitCommits(before child: RunPlan.PlannedStep) throws(HarnessFailure) {
        guard !isSleep(child) else { return }
        while let due = (committing.filter({ holdsBack($0.sent.child, child) }).map(\.due)
                         + launching.filter({ holdsBack($0.child, child) }).map(\.due)).min() {
            try env.advanceTime(to: Swift.max(due, now))
            try commitDue(by: now)
            try launchesDone(by: now)
        }
    }

    /// A child of another process that would start while siblings' writes hold their commits starts now,
    /// meeting their lock and reading the store as it was (0), or once they have committed (1), as the
    /// strategy chooses: in real time a save's lock is held a fraction of a millisecond, and whether a
    /// sibling's request comes in before or after that is the machine's choice (two deferred saves side by
    /// side fail `busy` in about half of real-time runs). Offered only for a step that touches the store
    /// (any command of a process just launched, whose edits fire faults) and for commits due within what
    /// the step itself costs, which real time can reach: a sibling's batch holding the lock for a second is
    /// met, never waited out by choice. The wait is written as a `sleep` before the child (`delays`), which
    /// holds it back as long on a replay as written. Its request went with the others' (real time sends
    /// them together, and counts what was delivered then): a child that starts a branch still gets its
    /// siblings' notifications only once it is under way, which the schedule writes as a
    /// `hold-notifications` before it and a `deliver` after it (a `sleep` alone, as written, would hand
    /// them over first).
    private func mayStartAfterCommits(_ child: RunPlan.PlannedStep, position: Int) throws(HarnessFailure) {
        // What came due while the steps before this one ran (a launch in its branch) has committed by now.
        try commitDue(by: now)
        // An edit of a process just launched fires a fault from the store, which the commit may change.
        let cold = env.isCold(child.step.process, child.step.step)
        guard !env.parallelAsWritten, !committing.isEmpty, !isSleep(child), let process = child.step.process,
              cold || env.dependsOnDelivery(child.step.step, to: process),
              !mustWait(child, earlier: deferred.count),
              step.command(for: child, besides: waiting.map(\.sent.slot.name)) != nil else { return }
        let reach = now.addingClamped(env.costs.cost(of: child.step.step, cold: cold))
        let within = committing.filter { $0.due > now && $0.due <= reach }
        guard let last = within.map(\.due).max() else { return }
        let holders = within.map(\.sent.slot.name)
        let point = ChoicePoint(kind: .startAfterCommit, count: 2, actors: [process, holders.sorted()[0]])
        guard env.choose(point) == 1 else { return }
        delays[position] = (last - now, step.holdsNotifications(until: child) ? process : nil)
        try env.advanceTime(to: last)
        try commitDue(by: now)
    }

    /// Whether `child` must wait: a step of its branch is pending, a process it involves is busy, or a
    /// child deferred before it (the first `earlier` of `deferred`) shares its branch or a process. A
    /// `sleep` never waits: it is its branch's timer (and running one inside another's would pass over
    /// the moments the outer one stops at).
    private func mustWait(_ child: RunPlan.PlannedStep, earlier: Int) -> Bool {
        guard !isSleep(child) else { return false }
        // A step that is no command for a running agent runs beside commands in flight only where real time
        // runs it so (`ParallelStep.mayRunInline`): an App Intent's step, which runs in whichever process
        // carries it, or a control step waits for every one.
        let inFlight = waiting.map(\.sent) + committing.map(\.sent)
        if !inFlight.isEmpty, step.command(for: child, besides: []) == nil,
           !step.mayRunInline(child, besides: inFlight.map(\.slot.name)) { return true }
        let pendingChildren = waiting.map(\.sent.child) + committing.map(\.sent.child) + launching.map(\.child)
        // A check between its attempts holds back its own branch, and a step of its process run inline (a
        // lifecycle change), which would leave it unable to be asked: real time sends another branch's
        // command to its process between the attempts, and asks the check again once that is answered.
        let inline = step.command(for: child, besides: []) == nil
        return pendingChildren.contains { holdsBack($0, child) }
            || checking.contains { (branch(of: $0.child) != nil && branch(of: $0.child) == branch(of: child)) || (inline && holdsBack($0.child, child)) }
            || deferred.prefix(earlier).contains { holdsBack($0.child, child) }
    }

    private func start(_ child: RunPlan.PlannedStep, position: Int, queued: Bool = false) throws(HarnessFailure) {
        // A write whose cost has passed while the steps before this one ran has committed by now; a
        // command whose busy timeout passed with the lock still held has failed by now, as SQLite's busy
        // handler gives up at the timeout.
        try commitDue(by: now)
        try launchesDone(by: now)
        try retryWaiting(onlyExpired: true)
        // A process with nothing under way has handled what was delivered to it long before this child acts
        // (a check asked again keeps what comes after it waiting until it is decided).
        let busy = Set(waiting.map(\.sent.slot.name) + committing.map(\.sent.slot.name) + checking.map(\.slot.name))
            .union(VirtualEnvironment.processes(of: child))
        // A `sleep` acts at its end: what is delivered before it is handled while it runs (a workload's pacing).
        let acting = sleepEnd(of: child) ?? env.latestAct(of: child.step)
        try env.handOverOverdue(actingAt: acting, besides: busy)
        // What was just committed or answered may have made a process busy again (a waiting write that
        // got the lock now holds its commit): a deferred child goes back to the front, before the others.
        if mustWait(child, earlier: queued ? 0 : deferred.count) {
            if queued { deferred.insert((child, position), at: 0) } else { deferred.append((child, position)) }
            return
        }
        guard let (slot, command) = step.command(for: child, besides: waiting.map(\.sent.slot.name)) else {
            if case .launch = child.step.step {
                // The process is ready once its launch has passed; the siblings go on meanwhile.
                env.launchEnd = now.addingClamped(env.costs.launch)
                defer { env.launchEnd = nil }
                try step.runInline(child)
                let due = env.launchEnd ?? now
                launching.append((child, due))
                // Until then it takes no request (a hand-over would move the clock to its end), and a
                // `sleep` after it in its branch counts from then.
                if let process = child.step.process { env.starting.insert(process) }
                if let branch = branch(of: child) { branchEnd[branch] = Swift.max(branchEnd[branch, default: began], due) }
                return
            }
            try runInline(child, position: position)
            try finished(child, at: now)
            try retryWaiting()
            return
        }
        let sent = try step.send(command, for: child, to: slot, lockWaits: env.lockWaits(for: command), holdsCommit: true)
        let reply = try runner.awaitReply(sent.seq, from: slot, timeout: runner.timeout(for: child.step.step, slot))
        if reply.status == .blocked {
            wait(sent, reply)
            return
        }
        try answered(sent, reply)
        if reply.commitHeld != true { try retryWaiting() }
    }

    /// Starts the deferred children that may start now, in order.
    private func startDeferred() throws(HarnessFailure) {
        // Inside the system's work, which runs inline: they start once it is done.
        guard !env.catchingUp else { return }
        var index = 0
        while index < deferred.count {
            if mustWait(deferred[index].child, earlier: index) {
                index += 1
                continue
            }
            let next = deferred.remove(at: index)
            try start(next.child, position: next.position, queued: true)
            index = 0
        }
    }

    /// When `child`, a `sleep` of a branch, ends: that long after its branch's step before it ended (a
    /// workload's pacing sleep at its operation's moment, counted from the parallel's start); nil for
    /// any other child, and as written (a sleep then simply waits its duration).
    private func sleepEnd(of child: RunPlan.PlannedStep) -> UInt64? {
        guard !env.parallelAsWritten, case .sleep(let duration) = child.step.step, let branch = branch(of: child) else { return nil }
        return Swift.max(now, child.paceOffset.map { began.addingClamped($0) } ?? branchEnd[branch, default: began].addingClamped(duration.nanos))
    }

    private func runInline(_ child: RunPlan.PlannedStep, position: Int) throws(HarnessFailure) {
        guard let end = sleepEnd(of: child) else { return try step.runInline(child) }
        env.sleepEnd = end
        defer { env.sleepEnd = nil }
        try step.runInline(child)
        slept[position] = env.sleptNanos
    }

    // MARK: Pending children

    /// `child` is done at `moment`: its branch's next step starts after it, and what waited for it starts.
    private func finished(_ child: RunPlan.PlannedStep, at moment: UInt64) throws(HarnessFailure) {
        if let branch = branch(of: child) { branchEnd[branch] = Swift.max(branchEnd[branch, default: began], moment) }
        try startDeferred()
    }

    /// The launches whose cost has passed by `limit`: each process is ready, and its branch goes on.
    private func launchesDone(by limit: UInt64) throws(HarnessFailure) {
        while let next = launching.indices.min(by: { launching[$0].due < launching[$1].due }), launching[next].due <= limit {
            let (child, due) = launching.remove(at: next)
            if let process = child.step.process { env.starting.remove(process) }
            try finished(child, at: due)
        }
    }

    private func wait(_ sent: ParallelStep.Sent, _ reply: AgentReply) {
        env.noteWaitingForLock(sent.slot)
        if reply.lockWaitPending == true { behindRefresh.insert(sent.slot.name) }
        waiting.append((sent, env.lockDeadline(of: sent.slot)))
    }

    /// A command answered: a write that holds its commit commits once its cost has passed; a check that did
    /// not match yet is asked again; anything else is done.
    private func answered(_ sent: ParallelStep.Sent, _ reply: AgentReply) throws(HarnessFailure) {
        if reply.commitHeld == true {
            committing.append((sent, (reply.virtualEnd ?? now).addingClamped(env.costs.held(sent.command, rows: reply.heldRows ?? 0))))
        } else if sent.asksAgain(after: reply) {
            checking.append(sent)
        } else {
            try complete(sent, with: reply, at: now)
        }
    }

    /// `sent` is done at `moment`: its process polls now if its poll fell due meanwhile (the agent polls
    /// before it takes its next request), then its branch goes on.
    private func complete(_ sent: ParallelStep.Sent, with reply: AgentReply, at moment: UInt64) throws(HarnessFailure) {
        step.complete(sent, with: reply)
        try env.pollIfDue(sent.slot)
        try finished(sent.child, at: moment)
    }

    /// Commits the held writes whose cost has passed by `limit`, earliest first, each at its moment: the
    /// waits that gave up before it failed with `busy` then; the others are asked again after it.
    private func commitDue(by limit: UInt64) throws(HarnessFailure) {
        while let next = committing.indices.min(by: { committing[$0].due < committing[$1].due }), committing[next].due <= limit {
            let due = committing[next].due
            try retryWaiting(onlyExpired: true, before: due)
            let (sent, _) = committing.remove(at: next)
            env.actingAt = due
            let reply: AgentReply
            do {
                defer { env.actingAt = nil }
                reply = try step.commit(sent)
            }
            try complete(sent, with: reply, at: due)
            try retryWaiting()
        }
    }

    /// Asks each waiting command again; one whose busy timeout has passed (before `moment`, by now when nil)
    /// is asked to fail with `busy` if the lock is still held. With `onlyExpired`, the others are left
    /// waiting as they are.
    private func retryWaiting(onlyExpired: Bool = false, before moment: UInt64? = nil) throws(HarnessFailure) {
        if !onlyExpired {
            try env.retryBackgroundWaits()
            if !env.catchingUp { try recheck() }
        }
        var index = 0
        while index < waiting.count {
            let expired = moment.map { waiting[index].deadline < $0 } ?? (waiting[index].deadline <= now)
            if onlyExpired && !expired {
                index += 1
                continue
            }
            let again = try step.resend(waiting[index].sent, lockWaits: expired ? .fail : .yield)
            let reply = try runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot))
            if reply.status == .blocked {
                // The refresh it waited behind is done and the command itself meets the lock now: its own
                // busy timeout starts, as SQLite's busy handler starts afresh for it.
                if reply.lockWaitPending != true && env.backgroundWaits[again.slot.name] == nil && behindRefresh.remove(again.slot.name) != nil {
                    waiting[index].deadline = env.lockDeadline(of: again.slot)
                }
                index += 1
            } else {
                waiting.remove(at: index)
                try answered(again, reply)
                index = 0
            }
        }
    }

    /// The processes with a command of the step under way: a held write, a wait for the lock. A check of
    /// theirs takes its next attempt once it is done, as in real time.
    private var busyWithCommands: Set<String> {
        Set(waiting.map(\.sent.slot.name) + committing.map(\.sent.slot.name))
    }

    /// Asks each check again, the last time once its deadline has passed. The attempt takes no virtual
    /// time: in real time the reader polls in its own process while its siblings act.
    private func recheck() throws(HarnessFailure) {
        let busy = busyWithCommands
        var index = 0
        while index < checking.count {
            if busy.contains(checking[index].slot.name) {
                index += 1
                continue
            }
            env.askingAgain = true
            defer { env.askingAgain = false }
            let again = try step.recheck(checking[index], lockWaits: .yield)
            let reply = try runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot))
            if reply.status == .blocked {
                // A refresh its process ran before the check met the lock: the check waits behind it.
                checking.remove(at: index)
                wait(again, reply)
            } else if again.asksAgain(after: reply) {
                checking[index] = again
                index += 1
            } else {
                checking.remove(at: index)
                try complete(again, with: reply, at: now)
            }
        }
    }

    /// Every child has started: time passes to the next moment something pending can change (a
    /// notification waiting for a checking process, a held write's commit, a timer, a deadline).
    private func drain() throws(HarnessFailure) {
        while !checking.isEmpty || !waiting.isEmpty || !committing.isEmpty || !launching.isEmpty || !deferred.isEmpty {
            // A launch that ends before anything else pending can change: its branch goes on then.
            if let due = launching.map(\.due).min(),
               !checking.contains(where: { env.holding[$0.slot.name] == nil && env.scripted.hasPending(for: $0.slot.name) }),
               (waiting.map(\.deadline) + committing.map(\.due) + checking.compactMap(\.checkDeadline)
                + (checking.isEmpty ? [] : [env.nextTimer()].compactMap { $0 })).allSatisfy({ due <= $0 }) {
                try env.advanceTime(to: Swift.max(due, now))
                try launchesDone(by: now)
                continue
            }
            if !checking.isEmpty {
                // Only a check whose process is free can be asked again now; the others wait for its command.
                let busy = busyWithCommands
                let askable = checking.filter { !busy.contains($0.slot.name) }
                if !askable.contains(where: { env.holding[$0.slot.name] == nil && env.scripted.hasPending(for: $0.slot.name) }) {
                    let moments = waiting.map(\.deadline) + committing.map(\.due) + askable.compactMap(\.checkDeadline)
                    let due = (moments + [env.nextTimer()].compactMap { $0 }).min() ?? now
                    try env.advanceTime(to: Swift.max(due, now))
                }
                try commitDue(by: now)
                try retryWaiting()
                continue
            }
            // A held write commits before a wait whose timeout comes later gives up.
            if let commit = committing.map(\.due).min(), waiting.allSatisfy({ commit <= $0.deadline }) {
                // What falls due before it happens at its moment, the store read as it was.
                try env.passMoments(before: commit) { busyWithCommands }
                try env.advanceTime(to: Swift.max(commit, now))
                try commitDue(by: now)
                continue
            }
            // Nothing else of the step can let go of a lock: the first wait to give up fails or goes on.
            guard let first = waiting.indices.min(by: { waiting[$0].deadline < waiting[$1].deadline }) else {
                // Deferred children with nothing pending before them (cannot happen: each waits for something pending).
                try startDeferred()
                guard deferred.isEmpty else { throw runner.failure("steps of a parallel could not start", process: nil) }
                break
            }
            let (sent, deadline) = waiting.remove(at: first)
            try env.advanceTime(to: deadline)
            let again = try step.resend(sent, lockWaits: .fail)
            try answered(again, runner.awaitReply(again.seq, from: again.slot, timeout: runner.timeout(for: again.child.step.step, again.slot)))
            try retryWaiting()
        }
    }
}
