extension Step {
    /// Whether the process's own code carries the step out: the runner sends it to the process's agent
    /// as it is (`AgentCommand.perform`), and the agent performs it. The others are the runner's: the
    /// system's lifecycles, reloads and pushes, the file's control steps, and a control's tap, whose value
    /// the runner reads from what the control rendered.
    public var isPerformedByProcess: Bool {
        switch self {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .push, .reloadTimelines,
             .reloadControls, .reload, .sleep, .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore,
             .appUpdate:
            false
        case .toggle(_, _, let reads):
            reads == .context
        case .observe, .deliver, .autosave, .insert, .update, .delete, .relate, .unrelate, .save, .rollback, .reset,
             .fetch, .refreshAll, .refresh, .runRefresh, .batchInsert, .batchUpdate, .batchDelete, .pinGeneration,
             .unpinGeneration, .beginWrite, .endWrite, .mergeHistory, .purgeHistory, .post, .checkpoint, .copyStore,
             .openCopy, .sync, .leech, .read, .count, .results, .state:
            true
        }
    }
}
