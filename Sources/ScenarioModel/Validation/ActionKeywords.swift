import Basics

/// The scenario language's action words: which take no argument, which take one (and the keys beside
/// it), which a role's work cannot hold, and an example of each for messages. A new action is added here.
enum ActionKeywords {
    /// Actions that take no argument: written bare (`- app: save`) or with `true` (`{ save: true }`).
    static let bareActions: [String: Step] = [
        "launch": .launch, "exit": .exit, "crash": .crash, "background": .background, "suspend": .suspend,
        "resume": .resume, "foreground": .foreground, "terminate": .terminate, "observe": .observe,
        "deliver": .deliver,
        "save": .save, "rollback": .rollback, "reset": .reset, "refresh": .refreshAll, "run-refresh": .runRefresh,
        "pin-generation": .pinGeneration(from: nil), "unpin-generation": .unpinGeneration, "begin-write": .beginWrite,
        "end-write": .endWrite, "merge-history": .mergeHistory, "purge-history": .purgeHistory(policy: nil),
        "checkpoint": .checkpoint, "sync": .sync, "leech": .leech, "push": .push(nil),
        "reload-timelines": .reloadTimelines(widget: nil), "reload-controls": .reloadControls(control: nil),
    ]

    /// Actions that take an argument, with the other keys each one accepts.
    static let argumentActions: [String: [String]] = [
        "insert": ["id", "set"], "update": ["set"], "delete": [],
        "relate": ["to", "via", "at"], "unrelate": ["from", "via"], "fetch": ["where", "sort"] + FetchOptions.keys, "refresh": ["merge"],
        "batch-insert": ["count", "set"], "batch-update": ["where", "set"], "batch-delete": ["where"],
        "pin-generation": [], "purge-history": ["expect"], "post": [], "copy-store": ["with-wal"], "open-copy": [],
        "read": ["expect", "within", "now"], "count": ["expect", "where", "within", "now"],
        "results": ["expect", "changes", "within", "now"],
        "state": ["expect", "within", "now"], "reload-timelines": [], "reload-controls": [], "push": [],
        "toggle": ["property", "reads"],
    ]

    /// Actions a role's work (`on-reload:`, `on-push:`) cannot hold: the system runs the process's
    /// lifecycle around the work itself.
    static let systemActions: Set<String> = [
        "launch", "exit", "crash", "background", "suspend", "resume", "foreground", "terminate", "push", "reload-timelines",
        "reload-controls",
    ]

    /// Every action name, in a stable order for messages.
    static let actionNames: [String] = Array(Set(bareActions.keys).union(argumentActions.keys)).sorted()

    /// An example of an action with its arguments, for messages.
    static func example(of action: String, modifiers: [String]) -> String {
        let examples = [
            "insert": "{ insert: Note, id: n1, set: { title: A } }", "update": "{ update: n1, set: { title: B } }",
            "delete": "{ delete: n1 }", "relate": "{ relate: n1, to: t1, via: tags }",
            "unrelate": "{ unrelate: n1, from: t1, via: tags }", "fetch": "{ fetch: Note }",
            "batch-insert": "{ batch-insert: Note, count: 1000 }",
            "batch-update": "{ batch-update: Note, where: \"rank > 2\", set: { pinned: true } }",
            "batch-delete": "{ batch-delete: Note, where: \"rank > 2\" }", "post": "{ post: notes-changed }",
            "copy-store": "{ copy-store: backup, with-wal: false }", "open-copy": "{ open-copy: backup }",
            "read": "{ read: n1, expect: { title: B }, within: 200ms }", "count": "{ count: Note, expect: 3 }",
            "state": "{ state: n1, expect: { fault: true } }", "results": "{ results: inbox, expect: [n2, n1] }",
        ]
        return examples[action] ?? "{ \(action): ... }"
    }
}
