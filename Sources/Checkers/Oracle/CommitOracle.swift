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
    /// Every store written, in the order first written.
    private(set) var stores: [String] = []

    /// The history of `object` in `store`, if anything of it was ever committed there.
    func history(store: String, object: String) -> ObjectHistory? {
        objects[ObjectKey(store: store, object: object)]
    }

    /// The same scenario object committed to another store than `store` (the first such store), for
    /// telling a view that never received an object from one that lost it.
    func elsewhere(object: String, notIn store: String) -> (store: String, history: ObjectHistory)? {
        for other in stores where other != store {
            if let history = objects[ObjectKey(store: other, object: object)] { return (other, history) }
        }
        return nil
    }

    /// Adds a committed save (call in time order).
    mutating func apply(_ commit: SaveCommit, t: UInt64, writer: String, step: Int?) {
        if !stores.contains(commit.store) { stores.append(commit.store) }
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
