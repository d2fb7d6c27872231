import Trace

/// One committed value of one property: the oracle's unit of truth.
struct ValueEntry {
    var t: UInt64
    var version: Int64
    var value: TraceValue
    var writer: String
    var step: Int?

    var reference: CommitReference { CommitReference(process: writer, t: t, version: version, step: step) }
}

/// One committed operation on an object (insert, update or delete).
struct OperationEntry {
    var t: UInt64
    var operation: CommittedObject.Operation
    var version: Int64
    var writer: String
    var step: Int?

    var reference: CommitReference { CommitReference(process: writer, t: t, version: version, step: step) }
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
    /// Every value this property ever had committed (for telling phantoms from stale reads in O(1)).
    private(set) var everCommitted: Set<ValueKey> = []

    mutating func append(_ entry: ValueEntry) {
        entries.append(entry)
        everCommitted.insert(ValueKey(entry.value))
    }

    /// The index of the last entry committed at or before `t`, if any.
    func lastIndex(atOrBefore t: UInt64) -> Int? {
        entries.lastIndex(atOrBefore: t, time: \.t)
    }
}

/// The committed history of one object in one store.
final class ObjectHistory {
    let id: String
    let entity: String
    private(set) var operations: [OperationEntry] = []
    private(set) var properties: [String: PropertyHistory] = [:]

    init(id: String, entity: String) {
        self.id = id
        self.entity = entity
    }

    /// The latest operation committed so far (while scanning in time order: the current state).
    var latest: OperationEntry? { operations.last }

    func record(_ object: CommittedObject, t: UInt64, writer: String, step: Int?) {
        operations.append(OperationEntry(t: t, operation: object.operation, version: object.version, writer: writer, step: step))
        guard object.operation != .delete else { return }
        for (property, value) in object.values {
            properties[property, default: PropertyHistory()].append(
                ValueEntry(t: t, version: object.version, value: value, writer: writer, step: step))
        }
    }

    func property(_ name: String) -> PropertyHistory? { properties[name] }

    /// The operation in effect at `t` (the last committed at or before it).
    func operation(atOrBefore t: UInt64) -> OperationEntry? {
        operations.lastIndex(atOrBefore: t, time: \.t).map { operations[$0] }
    }

    /// The first operation committed in `(after, upTo]`, if any.
    func firstOperation(after: UInt64, upTo: UInt64) -> OperationEntry? {
        let start = (operations.lastIndex(atOrBefore: after, time: \.t) ?? -1) + 1
        guard start < operations.count, operations[start].t <= upTo else { return nil }
        return operations[start]
    }

    /// Whether the object existed (inserted or updated, not deleted) at `t`.
    func exists(at t: UInt64) -> Bool {
        guard let op = operation(atOrBefore: t) else { return false }
        return op.operation != .delete
    }

    /// The first insert of the object.
    var firstInsert: OperationEntry? { operations.first { $0.operation != .delete } }
}

extension Array {
    /// Binary search over elements sorted by `time`: the last index whose time is `<= t`.
    func lastIndex(atOrBefore t: UInt64, time: (Element) -> UInt64) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if time(self[mid]) <= t { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
