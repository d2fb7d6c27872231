import Basics

/// The scenario language's action words: whether each is written bare or with an argument (and the keys
/// beside it), whether a role's work can hold it, and an example for messages. Each property is one
/// exhaustive switch, and so is the decoder's (`ActionDecoder.decodeArgumentAction`): a new action is a
/// new case, and the compiler names every place that must say what it does.
enum ActionWord: String, CaseIterable, Sendable {
    case launch, exit, crash, background, suspend, resume, foreground, terminate, observe, deliver, push
    case reloadTimelines = "reload-timelines"
    case reloadControls = "reload-controls"
    case insert, update, delete, toggle, relate, unrelate, save, rollback, reset, fetch, refresh
    case runRefresh = "run-refresh"
    case batchInsert = "batch-insert"
    case batchUpdate = "batch-update"
    case batchDelete = "batch-delete"
    case pinGeneration = "pin-generation"
    case unpinGeneration = "unpin-generation"
    case beginWrite = "begin-write"
    case endWrite = "end-write"
    case mergeHistory = "merge-history"
    case purgeHistory = "purge-history"
    case post, checkpoint
    case copyStore = "copy-store"
    case openCopy = "open-copy"
    case sync, leech, read, count, results, state

    /// Every action word, in a stable order for messages.
    static let names: [String] = allCases.map(\.rawValue).sorted()

    /// The word a step was written with, when it is an action (not a control step of the file).
    init?(_ step: Step) { self.init(rawValue: step.keyword) }

    /// The step the word makes written bare (`- app: save`, or `{ save: true }`), or nil when it needs an
    /// argument.
    var bareStep: Step? {
        switch self {
        case .launch: .launch
        case .exit: .exit
        case .crash: .crash
        case .background: .background
        case .suspend: .suspend
        case .resume: .resume
        case .foreground: .foreground
        case .terminate: .terminate
        case .observe: .observe
        case .deliver: .deliver
        case .push: .push(nil)
        case .reloadTimelines: .reloadTimelines(widget: nil)
        case .reloadControls: .reloadControls(control: nil)
        case .save: .save
        case .rollback: .rollback
        case .reset: .reset
        case .refresh: .refreshAll
        case .runRefresh: .runRefresh
        case .pinGeneration: .pinGeneration(from: nil)
        case .unpinGeneration: .unpinGeneration
        case .beginWrite: .beginWrite
        case .endWrite: .endWrite
        case .mergeHistory: .mergeHistory
        case .purgeHistory: .purgeHistory(policy: nil)
        case .checkpoint: .checkpoint
        case .sync: .sync
        case .leech: .leech
        case .insert, .update, .delete, .toggle, .relate, .unrelate, .fetch, .batchInsert, .batchUpdate, .batchDelete,
             .post, .copyStore, .openCopy, .read, .count, .results, .state:
            nil
        }
    }

    /// The other keys the word accepts beside its argument, or nil when it takes no argument.
    var modifiers: [String]? {
        switch self {
        case .insert: ["id", "set"]
        case .update: ["set"]
        case .relate: ["to", "via", "at"]
        case .unrelate: ["from", "via"]
        case .fetch: ["where", "sort"] + FetchOptions.keys
        case .refresh: ["merge"]
        case .batchInsert: ["count", "set"]
        case .batchUpdate: ["where", "set"]
        case .batchDelete: ["where"]
        case .purgeHistory: ["expect"]
        case .copyStore: ["with-wal"]
        case .read, .state: ["expect", "within", "now"]
        case .count: ["expect", "where", "within", "now"]
        case .results: ["expect", "changes", "within", "now"]
        case .toggle: ["property", "reads"]
        case .delete, .pinGeneration, .post, .openCopy, .reloadTimelines, .reloadControls, .push: []
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver,
             .save, .rollback, .reset, .runRefresh, .unpinGeneration, .beginWrite, .endWrite, .mergeHistory,
             .checkpoint, .sync, .leech:
            nil
        }
    }

    /// Whether the system does it to the process (its lifecycle, a push, a reload): a role's work
    /// (`on-reload:`, `on-push:`) cannot hold it, since the system runs the process around the work itself.
    var isSystem: Bool {
        switch self {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .push, .reloadTimelines,
             .reloadControls:
            true
        case .observe, .deliver, .insert, .update, .delete, .toggle, .relate, .unrelate, .save, .rollback, .reset, .fetch,
             .refresh, .runRefresh, .batchInsert, .batchUpdate, .batchDelete, .pinGeneration, .unpinGeneration,
             .beginWrite, .endWrite, .mergeHistory, .purgeHistory, .post, .checkpoint, .copyStore, .openCopy, .sync,
             .leech, .read, .count, .results, .state:
            false
        }
    }

    /// Whether it asks the system to reload widgets' timelines or controls' values.
    var isReload: Bool { self == .reloadTimelines || self == .reloadControls }

    /// Whether it acts on the process or its store as a whole, not on one of its contexts (`context:` is
    /// refused on it).
    var actsOnProcess: Bool {
        switch self {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .push, .reloadTimelines,
             .reloadControls, .sync, .leech, .checkpoint, .copyStore, .openCopy, .observe, .deliver, .beginWrite,
             .endWrite, .post:
            true
        case .insert, .update, .delete, .toggle, .relate, .unrelate, .save, .rollback, .reset, .fetch, .refresh,
             .runRefresh, .batchInsert, .batchUpdate, .batchDelete, .pinGeneration, .unpinGeneration, .mergeHistory,
             .purgeHistory, .read, .count, .results, .state:
            false
        }
    }

    /// The word as it must be written, with an example argument where it takes one, for messages.
    var example: String {
        switch self {
        case .insert: "{ insert: Note, id: n1, set: { title: A } }"
        case .update: "{ update: n1, set: { title: B } }"
        case .delete: "{ delete: n1 }"
        case .relate: "{ relate: n1, to: t1, via: tags }"
        case .unrelate: "{ unrelate: n1, from: t1, via: tags }"
        case .fetch: "{ fetch: Note }"
        case .batchInsert: "{ batch-insert: Note, count: 1000 }"
        case .batchUpdate: "{ batch-update: Note, where: \"rank > 2\", set: { pinned: true } }"
        case .batchDelete: "{ batch-delete: Note, where: \"rank > 2\" }"
        case .post: "{ post: notes-changed }"
        case .copyStore: "{ copy-store: backup, with-wal: false }"
        case .openCopy: "{ open-copy: backup }"
        case .read: "{ read: n1, expect: { title: B }, within: 200ms }"
        case .count: "{ count: Note, expect: 3 }"
        case .state: "{ state: n1, expect: { fault: true } }"
        case .results: "{ results: inbox, expect: [n2, n1] }"
        case .toggle: "{ toggle: l1, property: isOn }"
        case .refresh: "{ refresh: n1, merge: false }"
        case .pinGeneration: "{ pin-generation: current }"
        case .purgeHistory: "{ purge-history: { older-than: 7d } }"
        // What they name is the file's own (a process, the payload's keys).
        case .reloadTimelines, .reloadControls, .push: "{ \(rawValue): ... }"
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver,
             .save, .rollback, .reset, .runRefresh, .unpinGeneration, .beginWrite, .endWrite, .mergeHistory,
             .checkpoint, .sync, .leech:
            rawValue
        }
    }
}
