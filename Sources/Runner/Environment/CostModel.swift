import Agent
import Foundation
import ScenarioModel

/// What each thing an agent does costs in virtual time, so that the deterministic mode orders events
/// the way real time can: a launch takes as long as starting a process and opening its store does, so
/// a notification delayed 20 ms is not still on its way after a launch, a batch delete and an exit.
///
/// The figures are medians measured on real-time runs by `groupsim bench costs` (release build, the
/// 2-core machine of 2026-11-27: a launch 39-50 ms, an exit 4.6-5.6 ms, a request 1.3-1.5 ms, a commit
/// and a fetch each 1.3-1.8 ms more): run it to see this machine's, which it prints beside these. With a
/// launch charged 14 ms, `explore` wrote a counterexample to `batch-delete-the-view-never-learns-of` whose
/// 20 ms delayed notification outlasted a launch in virtual time and never in real time (0 of 5).
public struct CostModel: Sendable, Hashable {
    /// Starting an agent until its store is open and it observes (spawn, open, `ready`).
    public var launch: UInt64
    /// Closing the store and exiting.
    public var exit: UInt64
    /// One request and its reply for a command that does little (an edit in memory, a read from memory).
    public var request: UInt64
    /// Beyond `request`: a commit (a save, a batch operation, `end-write`, a purge).
    public var commit: UInt64
    /// Beyond `request`: a command that reads the store (a fetch, a refresh, a history merge, a check
    /// that fires faults).
    public var storeRead: UInt64
    /// Beyond a commit: each row a batch insert writes (50,000 rows take a quarter of a second), or a
    /// batch update or delete changes (20,000 take 75 ms in real time, 200,000 1.3 s), and each object a
    /// save writes beyond its first (5,000 inserted objects committed 30 ms into the save, review 99).
    public var row: UInt64
    /// Beyond a commit: each history change a purge deletes (200,000 take a tenth of a second).
    public var historyRow: UInt64
    /// Before a batch insert takes the write lock: each row it builds from the values given (a save
    /// started 25 ms into a 100,000-row batch insert commits before it, one started 30 ms in waits for
    /// it, in real time: about 0.27 µs a row). The rest of the batch's `row` cost is spent holding the lock.
    public var rowBuild: UInt64
    /// Beyond `request`: the first command a freshly launched process carries out (a read, an edit that
    /// fires a fault, a fetch), which pays for the code paths and SQL statements it runs the first time:
    /// 4.5-5 ms in real time on the 2-core machine of 2026-11-29, against 0.3-0.5 ms for the next one.
    /// Only `parallel` steps count it, and no virtual time is charged for it: in ordering the children
    /// (`lead(of:cold:)`) and in whether a child may start after a sibling's held commit, so that a step of
    /// an extension just launched may act after a save that starts beside it, as in most real-time runs.
    public var firstRequest: UInt64
    /// How long after its delivery a process with nothing else to do has received a notification at the
    /// latest (post to received in real time: p50 0.2 ms, p99 3.5 ms on the 2-core machine of 2026-11-29,
    /// `bench costs`). Before a step of another process that acts later than this after a delivery, the
    /// process has handled it: the schedule chooses only among steps that act sooner. Without it, an app's
    /// merge of its own save could wait past an extension's 40 ms launch and the write it began, which no
    /// real-time run shows.
    public var delivery: UInt64
    /// Beyond `launch`: each row a lightweight migration at launch rewrites (Core Data copies each entity's
    /// rows into its new table, holding the write lock): in real time a migrating launch took 85 ms with
    /// 5,000 rows, 180 ms with 20,000 and 525 ms with 50,000 (review 97), about 9 µs a row over a launch.
    public var migratedRow: UInt64
    /// Beyond the step's own cost: each object a `sync` or `leech` exports or imports. In real time a first
    /// sync of 5,000, 20,000 and 50,000 rows took 0.26 s, 1.47 s and 3.09 s (release build, the 2-core
    /// machine of 2026-11-30), about 60 µs an object; review 97 saw 1.2 s for 20,000.
    public var syncedObject: UInt64
    /// Post to received in real time, the median and the 99th percentile (0.2 ms and 3.5 ms, as `delivery`
    /// says): how often a notification is still on its way some time after the hub delivered it
    /// (`lateDelivery(after:)`).
    public var deliveryMedian: UInt64
    public var deliveryP99: UInt64

    public init(launch: UInt64, exit: UInt64, request: UInt64, commit: UInt64, storeRead: UInt64, row: UInt64 = 0,
                historyRow: UInt64 = 0, rowBuild: UInt64 = 0, firstRequest: UInt64 = 0, delivery: UInt64 = 5_000_000,
                deliveryMedian: UInt64 = 200_000, deliveryP99: UInt64 = 3_500_000, migratedRow: UInt64 = 0,
                syncedObject: UInt64 = 0) {
        self.launch = launch
        self.exit = exit
        self.request = request
        self.commit = commit
        self.storeRead = storeRead
        self.row = row
        self.historyRow = historyRow
        self.rowBuild = rowBuild
        self.firstRequest = firstRequest
        self.delivery = delivery
        self.deliveryMedian = deliveryMedian
        self.deliveryP99 = deliveryP99
        self.migratedRow = migratedRow
        self.syncedObject = syncedObject
    }

    /// In millionths, how many notifications real time has not yet handed to a process with nothing else to
    /// do `gap` after the hub delivered them: all at once, half at the median, one in a hundred at the 99th
    /// percentile, none from `delivery` on; log-linearly between the first three (the latency has a long
    /// tail), linearly to none after. An idle app merges a save's notification before a batch update its
    /// poster commits 2.7 ms later in about 97 runs of 100 (review 97: 11 of 11, 11 of 13, 4 of 5 real-time
    /// runs), which a uniform choice made one run in two.
    public func lateDelivery(after gap: UInt64) -> UInt64 {
        let median = Double(max(deliveryMedian, 1)), p99 = Double(max(deliveryP99, deliveryMedian.addingClamped(1)))
        let last = Double(max(delivery, deliveryP99.addingClamped(1))), at = Double(gap)
        let odds: Double
        if at >= last {
            odds = 0
        } else if at >= p99 {
            odds = 0.01 * (last - at) / (last - p99)
        } else if at >= median {
            odds = 0.5 * exp(log(0.01 / 0.5) * (at - median) / (p99 - median))
        } else {
            odds = exp(log(0.5) * at / median)
        }
        return UInt64((odds * 1_000_000).rounded())
    }

    /// The figures the deterministic mode uses (see the type's documentation).
    public static let measured = CostModel(
        launch: 40_000_000, exit: 5_000_000, request: 1_300_000, commit: 1_400_000, storeRead: 1_400_000, row: 5_000,
        historyRow: 500, rowBuild: 270, firstRequest: 4_500_000, delivery: 5_000_000, migratedRow: 9_000,
        syncedObject: 60_000)

    /// How long a process takes to merge a notification's history once it has it, before the purge that
    /// follows writes: a read of the store (`storeRead`).
    public var merge: UInt64 { storeRead }

    /// A batch insert of `count` rows: a commit and each row.
    private func batch(_ count: Int) -> UInt64 {
        let rows = UInt64(clamping: count).multipliedReportingOverflow(by: row)
        return (request + commit).addingClamped(rows.overflow ? .max : rows.partialValue)
    }

    /// What `command` costs: a step what the step costs, a refresh a read of the store.
    public func cost(of command: AgentCommand) -> UInt64 {
        switch command {
        case .perform(let step, _): cost(of: step)
        case .exit: exit
        case .awaitLock, .commitHeld: 0
        case .timerRefresh, .finalRefresh: request + storeRead
        case .becomeActive, .enterBackground, .armCrashDuringSave, .advanceClock, .lockState, .handleNotifications, .finalView:
            request
        }
    }

    /// What a write among the children of `parallel` holds the write lock for before it commits (the
    /// deterministic mode holds its commit that long): its cost, and each row it changed that the command
    /// does not say (a batch update's or delete's rows, a purge's history changes, `AgentReply.heldRows`).
    public func held(_ command: AgentCommand, rows: Int) -> UInt64 {
        let each: UInt64 = if case .purgeHistory = command.step { historyRow } else { row }
        let extra = UInt64(clamping: rows).multipliedReportingOverflow(by: each)
        return cost(of: command).addingClamped(extra.overflow ? .max : extra.partialValue)
    }

    /// How long a step of a `parallel` runs before what it does reaches its siblings: a write takes the
    /// write lock when its request is in (a batch insert once it has built its rows, `rowBuild` each) and
    /// holds it until its commit at the end of its cost (the deterministic mode holds its commit that
    /// long), so a sibling that starts later meets the lock; what any other step does may fall anywhere in
    /// what it costs. A process's first command after its launch (`cold`) may act `firstRequest` later.
    func lead(of step: Step, cold: Bool = false) -> UInt64 {
        if cold { return lead(of: step).addingClamped(firstRequest) }
        guard step.effect.writeLock == .commits else { return cost(of: step) }
        return request.addingClamped(settle(of: step))
    }

    /// How long a step of a `parallel` runs at least before what it does can reach its siblings: a batch
    /// insert builds its rows (`rowBuild` each) before it asks for the write lock; anything else may act at
    /// once.
    func settle(of step: Step) -> UInt64 {
        guard case .batchInsert(_, let count, _) = step else { return 0 }
        let rows = UInt64(clamping: count).multipliedReportingOverflow(by: rowBuild)
        return rows.overflow ? .max : rows.partialValue
    }

    /// What a step of a `parallel` may take before the next step of its branch starts: `cost(of:)`, and
    /// `firstRequest` more for a process's first command after its launch (`cold`).
    func cost(of step: Step, cold: Bool) -> UInt64 {
        cold ? cost(of: step).addingClamped(firstRequest) : cost(of: step)
    }

    /// What a step of a `parallel` takes before the next step of its branch starts, as `cost(of:)` charges
    /// its command (a launch, an exit, a commit, a read of the store); a `sleep` and the control steps
    /// take nothing here (a sleep's time is its own).
    func cost(of step: Step) -> UInt64 {
        switch step.effect.cost {
        case .launch: launch
        case .exit: exit
        case .rows(let count): batch(count)
        case .none: 0
        case .commit: request + commit
        case .storeRead: request + storeRead
        case .request: request
        }
    }
}
