import Basics
import Trace

/// A request line on the agent's stdin.
public struct AgentRequest: Sendable, Hashable, Codable {
    /// Matches the reply to the request.
    public var seq: Int
    /// The step index the command belongs to (for the trace), if any.
    public var step: Int?
    /// The error kind the step expects (`expect-error`): when it happens the step succeeds.
    public var expectError: ErrorKind?
    /// Scenario ids learned since the last request: id -> object reference in this agent's store.
    public var ids: [String: ObjectRef]
    /// For `sync` and `leech`: every scenario id's ensemble-wide global identifiers (more than one
    /// when the same scenario object was inserted in two stores without a `uuid`).
    public var globalIDs: [String: [String]]
    /// How many notifications the hub has delivered to this process so far: the agent handles them all
    /// (with the refreshes they trigger) before it executes the command, so a notification posted by
    /// one step is handled before the next step, never racing it. Nil: do not wait.
    public var deliveries: Int?
    /// Deterministic mode: the virtual time at which the agent acts (nil in real time).
    public var virtualTime: UInt64?
    /// Deterministic mode: the notifications the runner delivers now, handled (with the refreshes
    /// they trigger) before the command.
    public var notifications: [DeliveredNotification]?
    /// For a `read`, `count` or `state` check: whether its deadline has passed, so this attempt is the
    /// last (the runner asks again, after what could change the view, until then). Nil: the last.
    public var lastAttempt: Bool?
    /// For a `read`, `count` or `state` check with `within:`: its deadline (the first attempt's start plus
    /// the duration), on the run's clock. Until the check is decided, what was posted after it waits.
    public var checkDeadline: UInt64?
    /// Deterministic mode: what the command does when it meets another process's lock (nil: SQLite
    /// waits for it, up to the busy timeout).
    public var lockWaits: LockWaitHandling?
    /// Deterministic mode, a write among the children of `parallel`: the command leaves its transaction
    /// open when it is done, holding the store's write lock as the write lasts its cost in virtual time
    /// while the siblings act; the runner commits it with `commitHeld` when that time has passed. A write
    /// that changed nothing commits at once.
    public var holdsCommit: Bool?
    /// The background context the command runs through (created on first use), not the view context:
    /// a step's `context:`, or an App Intent's own context when its step runs in this process.
    public var context: String?
    /// The transaction author of that context's saves; nil for the process's own (an intent's context
    /// saves as the intent).
    public var contextAuthor: String?
    /// That context's merge policy; nil for the process's own (an intent's context resolves conflicts
    /// by the intent's `merge-policy`).
    public var contextMergePolicy: MergePolicy?
    /// Real time: the file holds the process's notifications (`hold-notifications`) until its `deliver`.
    /// What reaches it meanwhile (the hub lets the held ones go just before the `deliver` is written) is
    /// the `deliver`'s to handle, with its expectation, not its run loop's before the request is read.
    public var notificationsHeld: Bool?
    public var command: AgentCommand

    public init(seq: Int, step: Int? = nil, expectError: ErrorKind? = nil, ids: [String: ObjectRef] = [:],
                globalIDs: [String: [String]] = [:], deliveries: Int? = nil, command: AgentCommand) {
        self.deliveries = deliveries
        self.seq = seq
        self.step = step
        self.expectError = expectError
        self.ids = ids
        self.globalIDs = globalIDs
        self.command = command
    }
}

/// What a command does when it meets another process's lock in the deterministic mode, where the
/// runner, not SQLite, does the waiting (in virtual time, so that the holder can act meanwhile).
public enum LockWaitHandling: String, Sendable, Hashable, Codable {
    /// Change nothing and reply `blocked`: the runner asks again once the holder may have let go.
    case yield
    /// The runner waited out the busy timeout with the lock still held: fail with `busy`, as SQLite does.
    case fail
}

/// A notification the runner delivers to an agent in the deterministic mode.
public struct DeliveredNotification: Sendable, Hashable, Codable {
    public var name: String
    public var poster: String
    public var postedAt: UInt64

    public init(name: String, poster: String, postedAt: UInt64) {
        self.name = name
        self.poster = poster
        self.postedAt = postedAt
    }
}

/// What an agent did with notifications while it handled a request, in the deterministic mode (the
/// runner routes them): posts in order, and names it started or stopped observing.
public struct NotificationActivity: Sendable, Hashable, Codable {
    public var posts: [PostedNotification] = []
    public var observed: [String] = []
    public var unobserved: [String] = []

    public init(posts: [PostedNotification] = [], observed: [String] = [], unobserved: [String] = []) {
        self.posts = posts
        self.observed = observed
        self.unobserved = unobserved
    }

    public var isEmpty: Bool { posts.isEmpty && observed.isEmpty && unobserved.isEmpty }
}

/// A post, with the (virtual) time it was made.
public struct PostedNotification: Sendable, Hashable, Codable {
    public var name: String
    public var at: UInt64

    public init(name: String, at: UInt64) {
        self.name = name
        self.at = at
    }
}

/// A row in one store, named the way the runner shares it between agents.
public struct ObjectRef: Sendable, Hashable, Codable, CustomStringConvertible {
    public var entity: String
    public var pk: Int64

    public init(entity: String, pk: Int64) {
        self.entity = entity
        self.pk = pk
    }

    public var description: String { "\(entity)#\(pk)" }
}

/// A reply line on the agent's stdout.
public struct AgentReply: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// The command finished (an expected error counts as finished).
        case ok
        /// The command failed with `error`.
        case failed
        /// The agent started and opened its store (seq 0).
        case ready
        /// Armed crash point reached: the save is between its statements and COMMIT.
        case atCommit
        /// The command met another process's lock and changed nothing (`LockWaitHandling.yield`).
        case blocked
    }

    public var seq: Int
    public var status: Status
    public var error: ErrorRecord?
    /// Scenario ids this command committed for the first time (inserts), with their rows.
    public var inserted: [String: ObjectRef]
    /// Scenario ids whose rows this command deleted and committed.
    public var deleted: [String]
    /// For `lockState`: what is held, nil when nothing.
    public var lock: LockKind?
    /// After `sync`/`leech`: the global identifier of each scenario object this store holds.
    public var globalIDs: [String: String]
    /// After `sync`: further rows of a scenario object in this store (duplicates imported from a peer).
    public var aliases: [String: [ObjectRef]]
    /// Deterministic mode: the agent's virtual time when it replied (the runner's clock moves on to it).
    public var virtualEnd: UInt64?
    /// Deterministic mode: what it posted and started or stopped observing.
    public var notifications: NotificationActivity?
    /// For a `read`, `count` or `state` check: whether the view matched its expectation.
    public var matched: Bool?
    /// Deterministic mode: a refresh of this process met another process's lock and waits for it (its
    /// write is tried again with the next request, or an `awaitLock`).
    public var lockWaitPending: Bool?
    /// The store `inserted` and `deleted` name rows of, when it is not the one the runner gave the
    /// process: the empty store it fell back to (`on-load-failure: in-memory`), which no other agent opens.
    public var store: String?
    /// Deterministic mode: the write (sent with `AgentRequest.holdsCommit`) is done and its transaction is
    /// open, holding the write lock, until `commitHeld`; what it inserted and deleted comes with that reply.
    public var commitHeld: Bool?
    /// With `commitHeld`: the rows a batch update or delete changed, the history changes a purge deleted,
    /// or the objects a save wrote beyond its first, which the write holds the lock for besides its commit
    /// (`CostModel.held(_:rows:)`).
    public var heldRows: Int?
    /// The objects with changes in any of the process's contexts that no save has committed yet (nil when
    /// none), after the command: what the process loses if it ends now.
    public var unsaved: [String]?
    /// For a control's `read`: what the view showed at its last attempt (the runner keeps what a control's
    /// reload rendered, which its action's `toggle` negates), nil for other commands and processes.
    public var observed: Observation?

    public init(seq: Int, status: Status, error: ErrorRecord? = nil, inserted: [String: ObjectRef] = [:], deleted: [String] = [],
                lock: LockKind? = nil, globalIDs: [String: String] = [:], aliases: [String: [ObjectRef]] = [:]) {
        self.seq = seq
        self.status = status
        self.error = error
        self.inserted = inserted
        self.deleted = deleted
        self.lock = lock
        self.globalIDs = globalIDs
        self.aliases = aliases
    }
}

extension AgentReply {
    private enum CodingKeys: String, CodingKey {
        case seq, status, error, inserted, deleted, lock, globalIDs, aliases, virtualEnd, notifications, matched, lockWaitPending, store,
             commitHeld, heldRows, unsaved, observed
    }

    /// Decodes a reply; the collections may be left out when empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seq: try container.decode(Int.self, forKey: .seq),
            status: try container.decode(Status.self, forKey: .status),
            error: try container.decodeIfPresent(ErrorRecord.self, forKey: .error),
            inserted: try container.decodeIfPresent([String: ObjectRef].self, forKey: .inserted) ?? [:],
            deleted: try container.decodeIfPresent([String].self, forKey: .deleted) ?? [],
            lock: try container.decodeIfPresent(LockKind.self, forKey: .lock),
            globalIDs: try container.decodeIfPresent([String: String].self, forKey: .globalIDs) ?? [:],
            aliases: try container.decodeIfPresent([String: [ObjectRef]].self, forKey: .aliases) ?? [:])
        virtualEnd = try container.decodeIfPresent(UInt64.self, forKey: .virtualEnd)
        notifications = try container.decodeIfPresent(NotificationActivity.self, forKey: .notifications)
        matched = try container.decodeIfPresent(Bool.self, forKey: .matched)
        lockWaitPending = try container.decodeIfPresent(Bool.self, forKey: .lockWaitPending)
        store = try container.decodeIfPresent(String.self, forKey: .store)
        commitHeld = try container.decodeIfPresent(Bool.self, forKey: .commitHeld)
        heldRows = try container.decodeIfPresent(Int.self, forKey: .heldRows)
        unsaved = try container.decodeIfPresent([String].self, forKey: .unsaved)
        observed = try container.decodeIfPresent(Observation.self, forKey: .observed)
    }
}
