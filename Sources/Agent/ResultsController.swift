import Basics
import ScenarioModel
import SharedStore

/// A fetched-results controller (`NSFetchedResultsController`) with a delegate: the objects of its
/// fetch, kept in its sort order, that it updates from the changes its context processes.
final class ResultsController {
    let name: String
    let context: ObjectContext
    let request: FetchRequest
    /// The attribute naming its sections (`sectionNameKeyPath`), if any.
    let sections: String?
    /// Its objects, in order (IDs, not names: a merge between steps brings objects whose names the
    /// process learns with its next step; a save makes its own inserts' IDs permanent, `performSave`).
    var objects: [ObjectID]
    /// How many times it told its delegate its content changed (`controllerDidChangeContent(_:)`).
    var changes = 0

    /// `performFetch()`: `objects` are the fetch's results, put in the controller's sort order.
    init(name: String, context: ObjectContext, request: FetchRequest, sections: String?, objects: [ObjectID]) {
        self.name = name
        self.context = context
        self.request = request
        self.sections = sections
        self.objects = objects
        self.objects = sorted(objects)
    }

    /// The changes its context processed (`changed`): each changed object of its entity (`isKind`) is
    /// evaluated again against its predicate, with the values the context shows (firing a fault, as the
    /// controller does), and joins, leaves or moves; if any object joined, left or changed while in it, the
    /// delegate is told once.
    func process(_ changed: [ObjectID], isKind: (String, String) -> Bool) {
        let mine = changed.filter { isKind($0.entity, request.entity) }
        guard !mine.isEmpty else { return }
        var told = false
        for id in mine {
            let was = objects.contains(id)
            let now = context.viewContains(id) && (request.filter.map { AgentProcess.matches($0, id, in: context) } ?? true)
            if was || now { told = true }
            if was && !now { objects.removeAll { $0 == id } }
            if !was && now { objects.append(id) }
        }
        guard told else { return }
        objects = sorted(objects)
        changes += 1
    }

    /// Its sections: its objects, named by `name`, grouped by the value of its section attribute, in order.
    func sectionList(naming name: (ObjectID) -> String) -> [ResultsSection]? {
        guard let attribute = sections else { return nil }
        var result: [ResultsSection] = []
        for id in objects {
            let value = (try? context.value(attribute, of: id)) ?? .null
            let section = value == .null ? "" : value.description
            if result.last?.name == section {
                result[result.count - 1].objects.append(name(id))
            } else {
                result.append(ResultsSection(name: section, objects: [name(id)]))
            }
        }
        return result
    }

    /// `ids` in the controller's sort order, by the values its context shows; ties keep their order.
    private func sorted(_ ids: [ObjectID]) -> [ObjectID] {
        let keys = request.sortKeys ?? []
        guard !keys.isEmpty else { return ids }
        let rows = ids.enumerated().map { index, id -> (index: Int, id: ObjectID, values: [Value]) in
            (index, id, keys.map { key in (try? context.value(key.attribute, of: id)) ?? .null })
        }
        return rows.sorted { a, b in
            for (i, key) in keys.enumerated() {
                let order = a.values[i].compare(to: b.values[i]) ?? .orderedSame
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return a.index < b.index
        }.map(\.id)
    }
}
