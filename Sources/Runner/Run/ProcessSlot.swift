import Basics
import Agent
import ScenarioModel
import Supervisor
import Trace

/// One scenario process as the runner tracks it across launches: its lifecycle, its child process
/// when running, and the scenario ids it has been told about.
final class ProcessSlot {
    let process: RunProcess
    /// The trace's name for the store this process reads.
    let store: String
    var lifecycle: ProcessLifecycle
    var child: (any SupervisedProcess)? {
        // A check under way was the agent's: a process ended or launched again has none.
        didSet { openCheckDeadline = nil }
    }
    /// The objects with changes the process has not saved, as its last reply said: what it loses if it
    /// exits or is terminated now.
    var unsaved: [String]?
    /// Whether the child is a standby agent from the pool (given back at `exit`, not waited for).
    var pooled = false
    /// How many times it has been launched.
    var launches = 0
    /// Where its store is, once asked (`ScenarioRunner.storeLocation(of:)`): the same for every launch.
    var location: StoreLocation?
    private var nextSeq = 1
    /// Replies read while the runner waited for another of this process's commands (a request in flight
    /// beside it), kept until their own command's reply is asked for.
    var repliesAhead: [Int: AgentReply] = [:]
    /// The scenario ids already sent to the running agent.
    var sentIDs: [String: ObjectRef] = [:]
    /// Set while the process, launched with `on-load-failure: retry`, waits to load its store: why the
    /// last attempt failed. It has no agent then, and loads again before its next step.
    var awaitingStore: ErrorRecord?
    /// Set when the process ended at launch because its store did not load (`on-load-failure: crash`),
    /// until it is launched again: its steps meanwhile are skipped, not harness errors.
    var endedByLoadFailure = false

    /// The model version its running agent (or its next launch, until one) opens the store with: its
    /// `model` setting, or the version an `app-update` installed before it was launched.
    var modelVersion: String?

    /// The deadline of the process's check with `within:` under way in a `parallel` and not decided yet.
    /// Every other request to the process meanwhile carries it (`ScenarioRunner.write`), so the agent keeps
    /// holding what was posted after it, and the deterministic mode's poll timer waits, as the agent's own
    /// does (`AgentProcess.pollIfDue`): a request without it (another branch's batch insert, a workload's
    /// rollback, a poll) ended the hold, and the check's late last attempt saw a save committed after its
    /// deadline.
    var openCheckDeadline: UInt64?

    /// Whether the process's store did not load: it ended at launch, or it waits to load it.
    var hasNoStore: Bool { endedByLoadFailure || awaitingStore != nil }

    init(process: RunProcess, store: String) {
        self.process = process
        self.store = store
        modelVersion = process.settings.modelVersion
        lifecycle = ProcessLifecycle(process: process.name, role: process.settings.role)
    }

    var name: String { process.name }

    /// A new request sequence number.
    func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Whether the agent can take a command now (running and not stopped).
    var canTakeCommands: Bool {
        child != nil && (lifecycle.state == .active || lifecycle.state == .background)
    }
}
