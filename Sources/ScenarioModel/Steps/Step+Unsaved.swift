/// What a step does to the changes its process holds unsaved in a context. The validator's intent
/// tracking, the autosave schedule, the runner's App Intent carrier, explore's perturbations and the
/// deterministic mode's delivery choices read it here, from one exhaustive switch, so a new step must say
/// (each had its own list ending in `default:`, and a step missing from one was classed silently).
public enum UnsavedChanges: Sendable, Hashable {
    /// It edits objects in the context and leaves the edits unsaved: an insert, update, delete, toggle,
    /// relate or unrelate.
    case made
    /// It saves the context's changes: a save, an autosave.
    case saved
    /// It throws the context's changes away without touching the store: a rollback, a reset.
    case discarded
    /// It starts or ends the process, which then holds nothing unsaved: a launch, an exit, a crash, a
    /// termination.
    case lost
    /// It leaves what is unsaved as it was.
    case kept

    /// Whether nothing is unsaved in the context after the step.
    public var endsThem: Bool {
        switch self {
        case .saved, .discarded, .lost: true
        case .made, .kept: false
        }
    }
}

extension Step {
    /// What the step does to the changes its process holds unsaved.
    public var unsavedChanges: UnsavedChanges {
        switch self {
        case .insert, .update, .delete, .toggle, .relate, .unrelate: .made
        case .save, .autosave: .saved
        case .rollback, .reset: .discarded
        case .launch, .exit, .crash, .terminate: .lost
        case .background, .suspend, .resume, .foreground, .observe, .deliver, .push, .reloadTimelines,
             .reloadControls, .reload, .fetch, .refreshAll, .refresh, .runRefresh, .batchInsert, .batchUpdate,
             .batchDelete, .pinGeneration, .unpinGeneration, .beginWrite, .endWrite, .mergeHistory, .purgeHistory,
             .post, .checkpoint, .copyStore, .openCopy, .sync, .leech, .read, .count, .results, .state, .sleep,
             .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore, .appUpdate:
            .kept
        }
    }
}
