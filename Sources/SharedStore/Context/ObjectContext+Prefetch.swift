import Basics

extension ObjectContext {
    /// Reads the objects each key path reaches from `ids` into the row cache, as a fetch with
    /// `relationshipKeyPathsForPrefetching` does ("related objects in a single fetch, instead of incurring
    /// subsequent access to the store as each fault fires").
    ///
    /// The fetched objects are filled to follow their relationships (a to-many takes its contents now);
    /// each related row is read and cached, and its object registered as a fault if it was not: its fault
    /// later fires from the snapshot read here while `stalenessInterval` allows, which is what a prefetch
    /// changes for a reader. The related objects join the view as objects reached by ID do: the rows of the
    /// fetched list show them (a note's folder name). An object already filled keeps its values, as a
    /// refetched one does. A child context registers the related objects too, with no read of its own:
    /// its faults fire from its parent, which holds what it holds; inside a pinned query generation the
    /// rows are read from the generation and not cached.
    func prefetch(_ keyPaths: [String], from ids: [ObjectID]) throws(StoreError) {
        for path in keyPaths {
            var level = ids
            for relationship in path.split(separator: ".").map(String.init) where !level.isEmpty {
                var next: [ObjectID] = []
                var seen = Set<ObjectID>()
                for id in level where !isDeleted(id) {
                    // An object of a sibling kind may lack the relationship; an object that cannot be read
                    // reaches nothing.
                    guard let related = try? relatedObjects(of: id, via: relationship) else { continue }
                    for other in related where !other.isTemporary && seen.insert(other).inserted { next.append(other) }
                }
                for id in next {
                    let info = try entityInfo(of: id)
                    if parent == nil { guard try readFromStore(id, info) != nil else { continue } }
                    if objects[entity: info.index, id.primaryKey] == nil { _ = register(id, entity: info.index) }
                    screen.add(id)
                }
                level = next
            }
        }
    }
}
