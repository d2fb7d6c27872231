import Basics

/// A read of one object from a process's view.
public struct Observation: Sendable, Hashable, Codable {
    public var object: String
    /// Whether the object is in the view.
    public var found: Bool
    public var values: TraceValues
    /// The row version the values come from, when known.
    public var version: Int64?
    /// Properties holding this process's own unsaved edits (never anomalies).
    public var dirty: [String]
    /// Where the values came from.
    public var source: ReadSource
    /// True for the read whose value the step is judged on (the last one of a `within` loop).
    public var final: Bool
    /// True for a workload read (judged with `stale-tolerance`).
    public var workload: Bool
    /// Set when the read came from an opened copy (`copy:<name>`) rather than the process's store.
    public var store: String?
    /// True when the object is missing from the view because this process deleted it and has not
    /// saved: its own unsaved edit, never an anomaly.
    public var deletedUnsaved: Bool?
    /// The relationships the read's step asked about: name -> the scenario ids the view's object holds
    /// (sorted; a to-one holds at most one).
    public var related: [String: [String]]?
    /// The same relationships as the store held them throughout the read (read from the store just
    /// before and just after the view, and kept only when both agree); nil when a commit landed in
    /// between, or nothing was asked.
    public var relatedInStore: [String: [String]]?
    /// For an object not in the view: whether this process's own fetches of its entity return it from
    /// the store now; nil when the process never fetched the entity (or the object is unknown to it).
    /// An object its own filtered fetch leaves out is not missing from the view.
    public var listed: Bool?
    /// For the final attempt of a check with `within:`, asked once its deadline had passed (its process
    /// was busy with another step): the deadline. The process held back what was posted after it until
    /// the check was decided, so the view shows other processes' commits as of then.
    public var viewAsOf: UInt64?

    public init(object: String, found: Bool, values: TraceValues = [:], version: Int64? = nil, dirty: [String] = [], source: ReadSource = .memory, final: Bool = true, workload: Bool = false, store: String? = nil, deletedUnsaved: Bool? = nil) {
        self.store = store
        self.deletedUnsaved = deletedUnsaved
        self.object = object
        self.found = found
        self.values = values
        self.version = version
        self.dirty = dirty
        self.source = source
        self.final = final
        self.workload = workload
    }
}

/// A count of the objects of an entity in a process's view.
public struct CountObservation: Sendable, Hashable, Codable {
    public var entity: String
    public var predicate: String?
    /// The ids of the objects counted.
    public var ids: [String]
    public var final: Bool
    /// Set when the count came from an opened copy (`copy:<name>`) rather than the process's store.
    public var store: String?
    /// Objects of the entity this process deleted and has not saved (left out of `ids`, never anomalies).
    public var deletedUnsaved: [String]?
    /// For a final count: the committed objects that this process's own fetches of the entity return
    /// from the store (matching the count's predicate), read inside the count's interval. The list a
    /// screen built from those fetches should hold; nil when not read (a copy, an older trace).
    public var listed: [String]?
    /// Whether one of this process's fetches of the entity has no predicate (its list is every object).
    public var fetchedAll: Bool?
    /// Whether the context counted through was pinned to a query generation (it shows the store as of
    /// the pin, while `listed` is read from the store now); nil when not.
    public var pinned: Bool?
    /// For a count with a predicate: objects in the view that the predicate left out by the values the
    /// view shows (stale values can hide an object that belongs in the filtered list).
    public var hidden: [String]?
    /// Objects of the entity holding this process's own edits (unsaved, or inside a held write): their
    /// membership is the process's own doing, never judged against the list.
    public var edited: [String]?
    /// As for a read (`Observation.viewAsOf`): the deadline of a check with `within:` whose final attempt
    /// came after it, as of which the view shows other processes' commits.
    public var viewAsOf: UInt64?

    public init(entity: String, predicate: String? = nil, ids: [String], final: Bool = true, store: String? = nil,
                deletedUnsaved: [String]? = nil, listed: [String]? = nil, fetchedAll: Bool? = nil, hidden: [String]? = nil,
                edited: [String]? = nil) {
        self.edited = edited
        self.store = store
        self.deletedUnsaved = deletedUnsaved
        self.listed = listed
        self.fetchedAll = fetchedAll
        self.hidden = hidden
        self.entity = entity
        self.predicate = predicate
        self.ids = ids
        self.final = final
    }
}

/// The outcome of a `read` or `count` step that had an `expect`.
public struct CheckRecord: Sendable, Hashable, Codable {
    public var kind: CheckKind
    /// The object read, or the entity counted.
    public var subject: String
    public var expected: TraceValues
    public var actual: TraceValues
    public var expectedCount: Int?
    public var actualCount: Int?
    public var passed: Bool
    /// The `within` deadline in nanoseconds (0 for `now: true`).
    public var withinNanos: UInt64
    /// For a read: the relationships it expected (scenario ids, sorted), and what the view held.
    public var expectedRelated: [String: [String]]?
    public var actualRelated: [String: [String]]?

    public init(kind: CheckKind, subject: String, expected: TraceValues = [:], actual: TraceValues = [:], expectedCount: Int? = nil, actualCount: Int? = nil, passed: Bool, withinNanos: UInt64,
                expectedRelated: [String: [String]]? = nil, actualRelated: [String: [String]]? = nil) {
        self.expectedRelated = expectedRelated
        self.actualRelated = actualRelated
        self.kind = kind
        self.subject = subject
        self.expected = expected
        self.actual = actual
        self.expectedCount = expectedCount
        self.actualCount = actualCount
        self.passed = passed
        self.withinNanos = withinNanos
    }
}

/// A relationship's contents as reports print them: `[t1, t2]`, `[]`.
public enum RelatedText {
    public static func render(_ ids: [String]) -> String { "[" + ids.joined(separator: ", ") + "]" }
}
