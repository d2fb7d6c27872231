extension Step {
    /// The word the scenario language uses for this step (`insert`, `refresh`, `batch-update`, `sleep`,
    /// `clock`, ...), for traces and reports.
    public var keyword: String {
        switch self {
        case .launch: "launch"
        case .exit: "exit"
        case .crash: "crash"
        case .background: "background"
        case .suspend: "suspend"
        case .resume: "resume"
        case .foreground: "foreground"
        case .terminate: "terminate"
        case .observe: "observe"
        case .deliver: "deliver"
        case .push: "push"
        case .reloadTimelines: "reload-timelines"
        case .reloadControls: "reload-controls"
        case .reload: "reload"
        case .autosave: "autosave"
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        case .toggle: "toggle"
        case .relate: "relate"
        case .unrelate: "unrelate"
        case .save: "save"
        case .rollback: "rollback"
        case .reset: "reset"
        case .fetch: "fetch"
        case .refreshAll, .refresh: "refresh"
        case .runRefresh: "run-refresh"
        case .batchInsert: "batch-insert"
        case .batchUpdate: "batch-update"
        case .batchDelete: "batch-delete"
        case .pinGeneration: "pin-generation"
        case .unpinGeneration: "unpin-generation"
        case .beginWrite: "begin-write"
        case .endWrite: "end-write"
        case .mergeHistory: "merge-history"
        case .purgeHistory: "purge-history"
        case .post: "post"
        case .checkpoint: "checkpoint"
        case .copyStore: "copy-store"
        case .openCopy: "open-copy"
        case .sync: "sync"
        case .leech: "leech"
        case .read: "read"
        case .count: "count"
        case .results: "results"
        case .state: "state"
        case .sleep: "sleep"
        case .parallel: "parallel"
        case .sequence: "sequence"
        case .advanceClock: "clock"
        case .workload: "workload"
        case .fault: "fault"
        case .restoreStore: "restore-store"
        case .appUpdate: "app-update"
        }
    }

    /// Whether this is a control step (not tied to one process).
    public var isControl: Bool {
        if case .sequence = self { return true }
        return ScenarioDecoder.controlKeywords.contains(keyword)
    }
}

extension Step {
    /// The steps this one holds: a `parallel`'s children, a sequence's steps; nil for any other step.
    public var nestedSteps: [ScenarioStep]? {
        switch self {
        case .parallel(let children), .sequence(let children): children
        default: nil
        }
    }

    /// This step holding `steps` instead of its own (a step that holds none is returned as it is).
    public func replacingNestedSteps(_ steps: [ScenarioStep]) -> Step {
        switch self {
        case .parallel: .parallel(steps)
        case .sequence: .sequence(steps)
        default: self
        }
    }
}

extension ScenarioStep {
    /// The processes whose steps this one is or holds (inside `parallel` and sequences, at any depth).
    public var processesInvolved: Set<String> {
        Set([process].compactMap { $0 }).union((step.nestedSteps ?? []).flatMap(\.processesInvolved))
    }
}
