import Basics
import Foundation
import SharedStore
import ScenarioModel
import Trace

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

    init(name: String, context: ObjectContext, request: FetchRequest, sections: String?, objects: [ObjectID]) {
        self.name = name
        self.context = context
        self.request = request
        self.sections = sections
        self.objects = objects
    }
}

extension AgentProcess {
    /// `performFetch()` of the controller `name`, made again with `request` on the current context: its
    /// objects are the fetch's, in its sort order; its context now logs the changes it processes.
    func makeController(_ name: String, request: FetchRequest, sections: String?, results: [ObjectID]) {
        let context = currentContext
        context.logsProcessedChanges = true
        let controller = ResultsController(name: name, context: context, request: request, sections: sections, objects: results)
        controller.objects = sorted(controller.objects, by: controller)
        controllers[name] = controller
    }

    /// Gives each controller the changes its context processed since the last call, as the context's
    /// objects-did-change notification does: each changed object of its entity is evaluated again against
    /// its predicate, with the values the context shows (firing a fault, as the controller does), joins,
    /// leaves or moves; if any object joined, left or changed while in it, the delegate is told once.
    /// What the context did not process (another process's save it never merged, a batch request) does not
    /// reach it.
    func updateControllers() {
        guard !controllers.isEmpty else { return }
        var taken: [ObjectIdentifier: [ObjectID]] = [:]
        for name in controllers.keys.sorted() {
            let controller = controllers[name]!
            let key = ObjectIdentifier(controller.context)
            if taken[key] == nil { taken[key] = controller.context.takeProcessedChanges() }
            let changed = taken[key]!.filter { isKind($0.entity, of: controller.request.entity) }
            guard !changed.isEmpty else { continue }
            var told = false
            for id in changed {
                let was = controller.objects.contains(id)
                let now = controller.context.viewContains(id)
                    && (controller.request.filter.map { Self.matches($0, id, in: controller.context) } ?? true)
                if was || now { told = true }
                if was && !now { controller.objects.removeAll { $0 == id } }
                if !was && now { controller.objects.append(id) }
            }
            guard told else { continue }
            controller.objects = sorted(controller.objects, by: controller)
            controller.changes += 1
        }
    }

    /// `objects` in the controller's sort order, by the values its context shows; ties keep their order.
    func sorted(_ objects: [ObjectID], by controller: ResultsController) -> [ObjectID] {
        let keys = controller.request.sortKeys ?? []
        guard !keys.isEmpty else { return objects }
        let context = controller.context
        let rows = objects.enumerated().map { index, id -> (index: Int, name: ObjectID, values: [Value]) in
            (index, id, keys.map { key in (try? context.value(key.attribute, of: id)) ?? .null })
        }
        return rows.sorted { a, b in
            for (i, key) in keys.enumerated() {
                let order = a.values[i].compare(to: b.values[i]) ?? .orderedSame
                if order != .orderedSame { return (order == .orderedAscending) == key.ascending }
            }
            return a.index < b.index
        }.map(\.name)
    }

    /// The controller's sections: its objects grouped by the value of its section attribute, in order.
    func sections(of controller: ResultsController) -> [ResultsSection]? {
        guard let attribute = controller.sections else { return nil }
        var result: [ResultsSection] = []
        for id in controller.objects {
            let value = (try? controller.context.value(attribute, of: id)) ?? .null
            let section = value == .null ? "" : value.description
            let name = ids.name(of: id)
            if result.last?.name == section {
                result[result.count - 1].objects.append(name)
            } else {
                result.append(ResultsSection(name: section, objects: [name]))
            }
        }
        return result
    }

    /// `results`: what the controller holds and how often it told its delegate, until as expected. What it
    /// shows is judged as a count of its entity through its predicate (the objects committed that its
    /// fetch would return and it lacks are missed inserts).
    func checkResults(_ name: String, expect: ResultsExpectation, withinNanos: UInt64) throws {
        guard let controller = controllers[name] else {
            throw AgentError(kind: .other, description: "no fetched-results controller '\(name)' in this process yet; "
                + "a fetch with controller: \(name) makes it")
        }
        updateControllers()
        let started = time.reading()
        let sections = sections(of: controller)
        let names = controller.objects.map { ids.name(of: $0) }
        var actual: TraceValues = ["objects": .string(names.joined(separator: ", ")), "changes": .int(Int64(controller.changes))]
        var expected: TraceValues = [:]
        if let objects = expect.objects { expected["objects"] = .string(objects.joined(separator: ", ")) }
        if let wanted = expect.sections {
            expected["sections"] = .string(Self.text(wanted))
            actual["sections"] = .string(Self.text(sections ?? []))
        }
        if let changes = expect.changes { expected["changes"] = .int(Int64(changes)) }
        let matches = (expect.objects.map { $0 == names } ?? true) && (expect.sections.map { $0 == sections } ?? true)
            && (expect.changes.map { $0 == controller.changes } ?? true)
        lastCheckMatched = matches
        let done = matches || isLastAttempt
        let entity = controller.request.entity
        // Judged as a count of the entity, as the list a screen shows. A controller fetched with a limit
        // keeps what its updates bring past it: its list is no count of what the store holds.
        let context = controller.context
        let hidden = { () -> [String] in
            guard let filter = controller.request.filter else { return [] }
            let inList = Set(controller.objects)
            return context.viewObjects(entity: entity).filter { !inList.contains($0) && !Self.matches(filter, $0, in: context) }
                .map { self.ids.name(of: $0) }.sorted()
        }
        var observation = listObservation(entity, filter: controller.request.filter, shown: names.sorted(), hidden: hidden, in: context,
                                          final: done, judged: context === coordinator.viewContext && controller.request.fetchLimit == nil)
        if done { observation.viewAsOf = viewAsOf(started) }
        record(.counted(observation), start: started)
        if done {
            record(.check(CheckRecord(kind: .results, subject: name, expected: expected, actual: actual, passed: matches,
                                      withinNanos: withinNanos)))
        }
    }

    /// `Work: n1, n2 | Home: n3`.
    static func text(_ sections: [ResultsSection]) -> String {
        sections.map { "\($0.name): \($0.objects.joined(separator: ", "))" }.joined(separator: " | ")
    }
}
