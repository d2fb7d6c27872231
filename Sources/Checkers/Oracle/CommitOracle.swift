import Trace

/// Where an object lives: a store and the object's id in it.
struct ObjectKey: Hashable {
    var store: String
    var object: String
}

/// The sequence of committed versions per store, object and property, built from the trace's
/// `saveCommitted` events in time order. Every read is judged against it.
struct CommitOracle {
    private(set) var objects: [ObjectKey: ObjectHistory] = [:]

    /// The history of `object` in `store`, if anything of it was ever committed there.
    func history(store: String, object: String) -> ObjectHistory? {
        objects[ObjectKey(store: store, object: object)]
    }

    /// Adds a committed save (call in time order).
    mutating func apply(_ commit: SaveCommit, t: UInt64, writer: String, step: Int?) {
        for object in commit.objects {
            let key = ObjectKey(store: commit.store, object: object.id)
            let history: ObjectHistory
            if let existing = objects[key] {
                history = existing
            } else {
                history = ObjectHistory(id: object.id, entity: object.entity)
                objects[key] = history
            }
            history.record(object, t: t, writer: writer, step: step)
        }
    }
}
