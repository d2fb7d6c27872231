import Basics
import Trace

/// Something committed to a store, with the interval that contains its commit point.
///
/// `start` is taken while the writer holds the store's write lock, just before COMMIT, so within one
/// store `start` orders commits exactly; `end` is when COMMIT returned. A reader that began after
/// `end` must see the commit; one that ended before `start` cannot have.
protocol CommitInterval {
    var start: UInt64 { get }
    var end: UInt64 { get }
}

extension Array where Element: CommitInterval {
    /// The last index, in commit order, of a commit that started at or before `instant`: the newest
    /// commit an operation that completed at `instant` may have seen.
    func lastStarted(atOrBefore instant: UInt64) -> Int? {
        lastIndex(atOrBefore: instant, time: \.start)
    }

    /// The last index, in commit order, of a commit that completed strictly before `instant`: the
    /// newest commit an operation invoked at `instant` must see (everything before it in commit order
    /// is overwritten by then, whenever its writer got round to returning).
    ///
    /// `after` is a search already made, the last index started at or before a time: when `instant - 1` is at
    /// or before that time, the search goes back from that index rather than from the end of the history.
    func lastCompleted(before instant: UInt64, after known: (index: Int, atOrBefore: UInt64)? = nil) -> Int? {
        guard instant > 0 else { return nil }
        let found = if let known, instant - 1 <= known.atOrBefore {
            lastIndex(atOrBefore: instant - 1, below: known.index + 1, time: \.start)
        } else {
            lastStarted(atOrBefore: instant - 1)
        }
        guard var index = found else { return nil }
        while self[index].end >= instant {
            guard index > 0 else { return nil }
            index -= 1
        }
        return index
    }
}

/// One committed value of one property: the oracle's unit of truth.
struct ValueEntry: CommitInterval {
    var start: UInt64
    var end: UInt64
    var version: Int64
    var value: TraceValue
    var writer: String
    var step: Int?

    var reference: CommitReference { CommitReference(process: writer, t: end, version: version, step: step) }
}

/// One committed operation on an object (insert, update or delete).
struct OperationEntry: CommitInterval {
    var start: UInt64
    var end: UInt64
    var operation: ChangeOperation
    var version: Int64
    var writer: String
    var step: Int?

    var reference: CommitReference { CommitReference(process: writer, t: end, version: version, step: step) }
}

/// A value in a form where `int` and `double` that `matches` also hash alike.
struct ValueKey: Hashable {
    let value: TraceValue

    init(_ value: TraceValue) {
        if case .int(let i) = value { self.value = .double(Double(i)) } else { self.value = value }
    }
}

/// Every committed value of one property of one object in one store, in commit order.
struct PropertyHistory {
    private(set) var entries: [ValueEntry] = []
    /// Every value this property ever had committed, once it has more than a few entries (for telling
    /// phantoms from stale reads in O(1)); most properties are written once or twice, and a set each would
    /// cost a long run's checking more than the lookups it saves.
    private var committedValues: Set<ValueKey>?

    mutating func append(_ entry: ValueEntry) {
        entries.append(entry)
        if committedValues != nil {
            committedValues!.insert(ValueKey(entry.value))
        } else if entries.count > Self.scannedEntries {
            committedValues = Set(entries.map { ValueKey($0.value) })
        }
    }

    /// Up to how many entries `wasEverCommitted` looks through them rather than keep a set.
    private static let scannedEntries = 8

    /// Whether this property ever had `value` committed (an `int` and a `double` that match count as one).
    func wasEverCommitted(_ value: TraceValue) -> Bool {
        let key = ValueKey(value)
        if let committedValues { return committedValues.contains(key) }
        return entries.contains { ValueKey($0.value) == key }
    }

    /// The newest entry that changed the value (the first entry, or one whose value differs from the one
    /// before it): a commit records every value of its row, the unchanged ones too.
    var lastChange: ValueEntry? {
        guard var index = entries.indices.last else { return nil }
        while index > 0 && entries[index].value.matches(entries[index - 1].value) { index -= 1 }
        return entries[index]
    }
}

/// The committed history of one object in one store, in commit order.
///
/// Its state is written only by `CommitOracle.apply`, one commit at a time, never while a judge reads it:
/// no access can overlap, and checking at run time that none does cost every read of a long run a lookup.
final class ObjectHistory {
    let id: String
    let entity: String
    @exclusivity(unchecked) private(set) var operations: [OperationEntry] = []
    /// The earliest completion of any delete of it (nil while none is recorded; a sync import's end is not
    /// tightened, so it need not be the first delete in commit order): most reads come before any delete
    /// and need not look for one.
    @exclusivity(unchecked) private var firstDeleteEnd: UInt64?
    /// Each property committed, numbered in the order first committed (a model's few short names are
    /// compared faster than one is hashed, and a table each cost every read a lookup)...
    @exclusivity(unchecked) private var propertyNames = NameTable()
    /// ...and its history, at its number.
    @exclusivity(unchecked) private var properties: [PropertyHistory] = []

    init(id: String, entity: String) {
        self.id = id
        self.entity = entity
    }

    /// When its last commit, a delete, was complete; `UInt64.max` while its last commit is not a delete.
    var goneFrom: UInt64 {
        guard let last = operations.last, last.operation == .delete else { return .max }
        return last.end
    }

    /// The latest operation committed so far (while applying in commit order: the current state).
    var latest: OperationEntry? { operations.last }

    func record(_ object: CommittedObject, start: UInt64, end: UInt64, writer: String, step: Int?) {
        operations.append(OperationEntry(
            start: start, end: end, operation: object.operation, version: object.version, writer: writer, step: step))
        guard object.operation != .delete else {
            firstDeleteEnd = Swift.min(firstDeleteEnd ?? end, end)
            return
        }
        for (property, value) in object.values {
            let at = propertyNames.add(property)
            if at == properties.count { properties.append(PropertyHistory()) }
            properties[at].append(
                ValueEntry(start: start, end: end, version: object.version, value: value, writer: writer, step: step))
        }
    }

    func property(_ name: String) -> PropertyHistory? { propertyNames.number(of: name).map { properties[$0] } }

    /// The operation an operation invoked at `instant` must see (the newest completed before it).
    func settled(before instant: UInt64) -> OperationEntry? {
        operations.lastCompleted(before: instant).map { operations[$0] }
    }

    /// Whether a delete of the object completed before `instant`: when none did, none is settled then.
    func anyDeleteCompleted(before instant: UInt64) -> Bool {
        guard let firstDeleteEnd else { return false }
        return firstDeleteEnd < instant
    }

    /// Whether the object existed (inserted or updated, not deleted) for certain at `instant`.
    func exists(before instant: UInt64) -> Bool {
        guard let op = settled(before: instant) else { return false }
        return op.operation != .delete
    }

    /// Whether any operation matching `match` may have taken effect after the one settled before
    /// `invoked` and before `completed`: an operation overlapping `invoked...completed` that could
    /// have changed what was seen.
    func mayChange(between invoked: UInt64, and completed: UInt64, where match: (ChangeOperation) -> Bool = { _ in true }) -> Bool {
        guard let last = operations.lastStarted(atOrBefore: completed) else { return false }
        let first = (operations.lastCompleted(before: invoked, after: (last, completed)) ?? -1) + 1
        guard first <= last else { return false }
        return operations[first...last].contains { match($0.operation) }
    }

    /// Whether any operation was committed at all by the time an operation completing at `instant` ran:
    /// whether the first did (commit order is start order), found without a search of the whole history.
    func anyStarted(atOrBefore instant: UInt64) -> Bool {
        guard let first = operations.first else { return false }
        return first.start <= instant
    }

    /// The last insert settled before `instant`.
    func lastInsert(before instant: UInt64) -> OperationEntry? {
        guard let end = operations.lastCompleted(before: instant) else { return nil }
        return operations[...end].last { $0.operation == .insert }
    }

    /// The first insert of the object.
    var firstInsert: OperationEntry? { operations.first { $0.operation != .delete } }
}

extension Array {
    /// Search over elements sorted by `time`: the last index whose time is `<= t`.
    ///
    /// Galloping from the end (the last element, then 2, 4, 8... back), then binary within the bracket:
    /// reads ask for the newest commits, and a plain binary search began in the middle of a long history,
    /// one cache miss per halving; the 2M-event run's histories, twice as long, missed all the more.
    ///
    /// `below` is an index every element from which on is known to be later than `t` (the count, unless a
    /// search for a later time already found where it ends): the gallop starts there.
    func lastIndex(atOrBefore t: UInt64, below end: Int? = nil, time: (Element) -> UInt64) -> Int? {
        // Every index at or past `high` has a later time; every index before `low`, one at or before `t`.
        var low = 0
        var high = end ?? count
        var step = 1
        while high > 0 {
            let probe = Swift.max(0, high - step)
            if time(self[probe]) <= t {
                low = probe + 1
                break
            }
            high = probe
            step *= 2
        }
        while low < high {
            let mid = (low + high) / 2
            if time(self[mid]) <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
