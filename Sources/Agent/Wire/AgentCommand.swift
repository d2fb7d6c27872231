import Basics
import ScenarioModel
import Trace

/// One thing the runner asks an agent to do: a step of the scenario the process performs, or a harness
/// request.
///
/// Travels as one JSON line on the agent's stdin. Scenario ids (`n1`) appear here; the agent maps
/// them to its store's object IDs and SharedStore never sees them.
public enum AgentCommand: Sendable, Hashable, Codable {
    /// A step the process's own code carries out (`Step.isPerformedByProcess`), as the file wrote it (an
    /// insert with the model's defaults filled in). `workload`: a workload's read, whose staleness is
    /// recorded as the workload's, not judged as a step's.
    case perform(Step, workload: Bool = false)
    // Lifecycle seen from inside the process.
    case becomeActive
    case enterBackground
    // Harness requests.
    /// Kill-point: the next save stops after its statements, before COMMIT, says so, and waits to be killed.
    case armCrashDuringSave
    /// Moves the simulated wall clock forward (no reply: a suspended agent applies it on resume).
    case advanceClock(nanos: UInt64)
    /// Whether the process holds a transaction open on a shared store (asked before SIGSTOP).
    case lockState
    /// Deterministic mode: the poll interval has passed in virtual time; run the strategy (reason `poll`).
    case timerRefresh
    /// Nothing but the notifications delivered so far (those the request carries, in the deterministic mode).
    case handleNotifications
    /// Deterministic mode: nothing but a refresh's write that waits for another process's lock, tried again
    /// (it yields again while the lock is held, or fails with `busy` under `LockWaitHandling.fail`).
    case awaitLock
    /// Deterministic mode: commits the write a command sent with `AgentRequest.holdsCommit` left open.
    case commitHeld
    /// Runs the refresh strategy one last time (reason `final`) and records the view.
    case finalRefresh
    /// Records the view as it is, with no last refresh: a widget shows what its last reload rendered.
    case finalView
    /// Closes the store and exits with status 0.
    case exit
}

extension AgentCommand {
    /// The step performed, for a `perform` command.
    public var step: Step? {
        if case .perform(let step, _) = self { step } else { nil }
    }

    /// Whether the command is a save: a `save` step, or a SwiftData main context's autosave.
    public var isSave: Bool {
        switch step {
        case .save, .autosave: true
        default: false
        }
    }

    /// Whether a command that met another process's lock changed nothing before it did, so it can be
    /// asked again once the lock may be free (the deterministic mode's lock waits): those that take the
    /// write lock first, or a checkpoint, which waits for readers before it writes anything.
    public var yieldsOnLockWait: Bool {
        guard let step else { return false }
        return step.effect.writeLock != .none
    }

    /// Whether the command is a write the deterministic mode keeps open for its cost among the children of
    /// `parallel` when asked (`AgentRequest.holdsCommit`): a save, a batch operation, a purge.
    public var mayHoldItsCommit: Bool {
        step?.effect.writeLock == .commits
    }

    /// Whether the command is a check that may be asked again until its deadline (`within`), and that deadline.
    public var checkWithin: UInt64? {
        switch step {
        case .read(_, _, let timing), .count(_, _, _, let timing), .state(_, _, let timing), .results(_, _, let timing): timing.nanos
        default: nil
        }
    }
}
