import Basics
import Trace

/// One row of one store: its primary key when the trace has it, else its scenario id.
struct RowKey: Hashable, Comparable {
    var store: String
    var entity: String
    var row: String

    init(store: String, entity: String, pk: Int64?, id: String) {
        self.store = store
        self.entity = entity
        self.row = pk.map { "#\($0)" } ?? id
    }

    static func < (a: RowKey, b: RowKey) -> Bool { (a.store, a.entity, a.row) < (b.store, b.entity, b.row) }
}

/// One committed operation on one row.
struct RowOperation: CommitInterval {
    var start: UInt64
    var end: UInt64
    var operation: ChangeOperation
    var version: Int64
    var values: TraceValues
    var id: String
    var writer: String
    var step: Int?

    var reference: CommitReference { CommitReference(process: writer, t: end, version: version, step: step) }
}

/// Every committed operation per row (rather than per scenario id, which two rows may share), in each
/// store's commit order: what the data-loss checks replay a store file against.
struct RowOracle {
    private(set) var rows: [RowKey: [RowOperation]] = [:]

    init(_ oracle: CommitOracle) {
        for event in oracle.ordered {
            for object in event.commit.objects {
                let key = RowKey(store: event.commit.store, entity: object.entity, pk: object.pk, id: object.id)
                rows[key, default: []].append(RowOperation(
                    start: event.start, end: event.end, operation: object.operation, version: object.version,
                    values: object.values, id: object.id, writer: event.writer, step: event.step))
            }
        }
    }

    /// What a file whose contents were fixed during `invoked...completed` must hold for `store`: for each
    /// row, its state after the last operation that completed before `invoked`, unless an operation
    /// that may have run during the interval changed it (either state is then fine).
    func expectations(for store: String, invoked: UInt64, completed: UInt64) -> [RowExpectation] {
        var result: [RowExpectation] = []
        for (key, operations) in rows where key.store == store {
            guard let settled = operations.lastCompleted(before: invoked) else { continue }
            if operations[(settled + 1)...].contains(where: { $0.start <= completed }) { continue }
            var values: [String: RowOperation] = [:]
            for operation in operations[...settled] where operation.operation != .delete {
                for property in operation.values.keys { values[property] = operation }
            }
            result.append(RowExpectation(key: key, last: operations[settled], latest: values))
        }
        return result.sorted { $0.key < $1.key }
    }
}

/// The state a row must be found in.
struct RowExpectation {
    var key: RowKey
    /// The last operation settled on the row.
    var last: RowOperation
    /// For each property, the operation that committed its latest value.
    var latest: [String: RowOperation]
}
