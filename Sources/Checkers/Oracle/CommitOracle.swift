import Trace

/// Where an object lives: a store and the object's id in it.
struct ObjectKey: Hashable {
    var store: String
    var object: String

    /// The object's id alone: a store's name is long and shared by nearly every key of a table, and hashing
    /// it made up most of every lookup (keys still compare by both).
    func hash(into hasher: inout Hasher) { hasher.combine(object) }
}

/// One `saveCommitted` event, as the oracle orders it.
struct CommitEvent {
    var commit: SaveCommit
    var writer: String
    var step: Int?
    /// Taken just before COMMIT with the write lock held (the event's `start`).
    var start: UInt64
    /// When COMMIT returned (the event's `t`), tightened by the next commit to the same store.
    var end: UInt64
    /// Position in the trace, the last tie-break.
    var index: Int
}

/// The sequence of committed versions per store, object and property. Every read is judged against it.
///
/// Commits are ordered per store by their `start`, which each writer takes while it holds the store's
/// write lock: that is the order SQLite committed them in, whatever order the processes got round to
/// recording them in. A commit is known to be complete by the next commit's `start` to the same store
/// (that writer could only take the lock once the previous COMMIT released it), so its `end` becomes
/// the earlier of the two; commits with equal starts are one COMMIT, and a sync import, which may span
/// several COMMITs, is not tightened.
struct CommitOracle {
    /// The trace's objects numbered: histories are kept per store at an object's number.
    let numbers: TraceNumbers
    /// Per store of `stores`, by object number: the object's history there.
    private var histories: [[ObjectHistory?]] = []
    /// Every store written, numbered in the order first written.
    private var storeNames = NameTable()
    /// Every store written, in the order first written.
    var stores: [String] { storeNames.names }
    /// Per store and entity, the ids committed there, in the order first committed.
    private(set) var idsByEntity: [String: [String: [String]]] = [:]
    /// Whether the model has sub-entities (then `kinds` says which entity's objects are another's).
    var hasInheritance = false
    /// Whether objects of the first entity are objects of the second (the trace header's inheritance).
    var kinds: @Sendable (String, String) -> Bool = { $0 == $1 }
    /// Every commit, per store in commit order, stores in the order first written (as `order` gives them);
    /// `apply` adds them to the histories one at a time.
    let ordered: [CommitEvent]
    /// Per store, the ids some commit deleted there (usually few: a count checks only these for a
    /// missed delete, not every id it counted).
    private(set) var deletedIDs: [String: Set<String>] = [:]

    /// Orders `commits` (in trace order) per store, for `init(numbers:ordered:)`. Commits already in that
    /// order (a trace's usually are) are tightened in place: copying a long run's events, each holding its
    /// commit's objects, retained and released every string and list in them.
    static func order(_ commits: consuming [CommitEvent]) -> [CommitEvent] {
        // Positions are sorted, not the events: an event is large (its commit's objects and values), and
        // moving each through a sort and two copies cost more than judging it.
        var stores = NameTable()
        var byStore: [[Int]] = []
        // By position: binding each event (`for commit in commits`) copied it, retaining everything it holds.
        for position in commits.indices {
            let store = stores.add(commits[position].commit.store)
            if store == byStore.count { byStore.append([]) }
            byStore[store].append(position)
        }
        // Compared by their times alone: binding two whole events per comparison copied (and retained)
        // their stores, objects and writers.
        let times = commits.map { (start: $0.start, end: $0.end, index: $0.index) }
        func before(_ a: Int, _ b: Int) -> Bool {
            let a = times[a], b = times[b]
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            return a.index < b.index
        }
        var positions: [Int] = []
        positions.reserveCapacity(commits.count)
        var ends: [Int] = []
        for var list in byStore {
            // Writers usually record their commits in commit order: sort only when they did not.
            if !zip(list, list.dropFirst()).allSatisfy({ !before($1, $0) }) { list.sort(by: before) }
            positions += list
            ends.append(positions.count)
        }
        var result: [CommitEvent]
        if positions.elementsEqual(commits.indices) { result = consume commits } else { result = positions.map { commits[$0] } }
        var first = 0
        for end in ends {
            defer { first = end }
            // Commits sharing a start share one COMMIT (the saves an `end-write` committed): each is
            // complete by the next strictly later start, not by its sibling's.
            var next = end
            for i in (first..<end).reversed() {
                if i + 1 < end, result[i + 1].start > result[i].start { next = i + 1 }
                guard next < end, result[i].commit.source != .syncImport else { continue }
                result[i].end = min(result[i].end, result[next].start)
            }
        }
        return result
    }

    /// The oracle of `ordered` (from `order`), none applied yet; `numbers` numbers every object they write.
    init(numbers: TraceNumbers, ordered: [CommitEvent]) {
        self.numbers = numbers
        self.ordered = ordered
    }

    /// The history of `object` in `store`, if anything of it was ever committed there.
    func history(store: String, object: String) -> ObjectHistory? {
        guard let store = storeNames.number(of: store), let object = numbers.object(object) else { return nil }
        return histories[store][object]
    }

    /// The history of object number `object` in the store at `store` in `stores`.
    func history(store: Int, object: Int) -> ObjectHistory? { histories[store][object] }

    /// By object number, the histories in the store at `store` in `stores` (nil for objects never committed there).
    func histories(store: Int) -> [ObjectHistory?] { histories[store] }

    /// Where `store` is in `stores`, if it was ever written.
    func storeIndex(of store: String) -> Int? { storeNames.number(of: store) }

    /// The ids of `entity` and its sub-entities ever committed to `store`.
    func ids(of entity: String, in store: String) -> [String] {
        guard hasInheritance, let byEntity = idsByEntity[store] else { return idsByEntity[store]?[entity] ?? [] }
        return byEntity.keys.sorted().filter { kinds($0, entity) }.flatMap { byEntity[$0]! }
    }

    /// Beside each of `ids(of:in:)`, in the same order: when the object's last commit, a delete, was
    /// complete; `UInt64.max` for one whose last commit is not a delete.
    /// Found when asked (once per entity and store a count names), from the histories: kept up to date
    /// by every commit, the lists cost each commit two lookups by name.
    func goneFrom(of entity: String, in store: String) -> [UInt64] {
        guard let index = storeIndex(of: store) else { return [] }
        return ids(of: entity, in: store).map { id in
            numbers.object(id).flatMap { histories[index][$0]?.goneFrom } ?? .max
        }
    }

    /// The same scenario object committed to another store than `store` (the first such store), for
    /// telling a view that never received an object from one that lost it.
    func elsewhere(object: String, notIn store: String) -> (store: String, history: ObjectHistory)? {
        numbers.object(object).flatMap { elsewhere(object: $0, notIn: store) }
    }

    /// `elsewhere(object:notIn:)` of object number `object`.
    func elsewhere(object: Int, notIn store: String) -> (store: String, history: ObjectHistory)? {
        for (index, other) in stores.enumerated() where other != store {
            if let history = histories[index][object] { return (other, history) }
        }
        return nil
    }

    /// Adds `ordered[position]` to the histories (call for each position in turn).
    mutating func apply(_ position: Int) {
        // Read in place: a copy of the event retained and released everything its commit holds.
        let storeName = ordered[position].commit.store
        let start = ordered[position].start, end = ordered[position].end
        let writer = ordered[position].writer, step = ordered[position].step
        let store = storeNames.add(storeName)
        if store == histories.count { histories.append(Array(repeating: nil, count: numbers.objectCount)) }
        for object in ordered[position].commit.objects {
            let number = numbers.object(object.id)!
            let history: ObjectHistory
            if let existing = histories[store][number] {
                history = existing
            } else {
                history = ObjectHistory(id: object.id, entity: object.entity)
                histories[store][number] = history
                idsByEntity[storeName, default: [:]][object.entity, default: []].append(object.id)
            }
            history.record(object, start: start, end: end, writer: writer, step: step)
            if object.operation == .delete { deletedIDs[storeName, default: []].insert(object.id) }
        }
    }
}
