/// What a step costs and how it takes the store's write lock: the deterministic mode's costs
/// (`CostModel`) and the agent's lock waits read them here, from one exhaustive switch, so a new step
/// must say (a `default:` in each reader had given a new step a cost and a lock behaviour silently).
public struct StepEffect: Sendable, Hashable {
    /// What the step takes, as the deterministic mode charges it.
    public enum Cost: Sendable, Hashable {
        /// Nothing of its own: a control step of the file (a `sleep`'s time is its own).
        case none
        /// A process's launch (a launch, or a push or reload that starts one).
        case launch
        /// A process's exit.
        case exit
        /// A command to the process that neither reads the store nor commits.
        case request
        /// A command that reads the store.
        case storeRead
        /// A command that commits.
        case commit
        /// A batch insert of this many rows (built before it asks for the write lock).
        case rows(Int)
    }

    /// How the step takes the store's write lock.
    public enum WriteLock: Sendable, Hashable {
        /// It does not take it before it acts.
        case none
        /// It takes it before it changes anything and commits at its end: a lock wait leaves nothing done,
        /// so it is asked again, and among the children of `parallel` its commit may be held open.
        case commits
        /// It takes it and keeps it across steps (`begin-write`): asked again after a lock wait.
        case holds
        /// It waits for readers before it writes anything (a checkpoint): asked again after a lock wait.
        case waitsForReaders
    }

    public var cost: Cost
    public var writeLock: WriteLock

    init(_ cost: Cost, _ writeLock: WriteLock = .none) {
        self.cost = cost
        self.writeLock = writeLock
    }
}

extension Step {
    /// What the step costs and how it takes the write lock.
    public var effect: StepEffect {
        switch self {
        case .launch, .push, .reload: StepEffect(.launch)
        case .exit: StepEffect(.exit)
        case .sleep, .advanceClock, .fault, .parallel, .sequence, .workload, .restoreStore, .appUpdate: StepEffect(.none)
        case .batchInsert(_, let count, _): StepEffect(.rows(count), .commits)
        // A sync's export, import and outbox are one transaction when its commit is held.
        case .save, .batchUpdate, .batchDelete, .purgeHistory, .sync, .leech: StepEffect(.commit, .commits)
        // Charged its request alone, though it commits: so it has always been, and a commit's cost would
        // move every SwiftData run's deterministic trace.
        case .autosave: StepEffect(.request, .commits)
        case .checkpoint: StepEffect(.commit, .waitsForReaders)
        case .endWrite, .copyStore: StepEffect(.commit)
        case .beginWrite: StepEffect(.storeRead, .holds)
        case .fetch, .refreshAll, .runRefresh, .mergeHistory, .openCopy, .read, .count, .results: StepEffect(.storeRead)
        case .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver, .reloadTimelines,
             .reloadControls, .insert, .update, .delete, .toggle, .relate, .unrelate, .rollback, .reset, .refresh,
             .pinGeneration, .unpinGeneration, .post, .state:
            StepEffect(.request)
        }
    }
}
