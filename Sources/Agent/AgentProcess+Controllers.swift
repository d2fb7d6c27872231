import Basics
import Foundation
import SharedStore
import ScenarioModel
import Trace

extension AgentProcess {
    /// `performFetch()` of the controller `name`, made again with `request` on the current context: its
    /// objects are the fetch's, in its sort order; its context now logs the changes it processes.
    func makeController(_ name: String, request: FetchRequest, sections: String?, results: [ObjectID]) {
        let context = currentContext
        context.logsProcessedChanges = true
        controllers[name] = ResultsController(name: name, context: context, request: request, sections: sections, objects: results)
    }

    /// Gives each controller the changes its context processed since the last call, as the context's
    /// objects-did-change notification does (`ResultsController.process(_:isKind:)`). What the context did not
    /// process (another process's save it never merged, a batch request) does not reach it.
    func updateControllers() {
        guard !controllers.isEmpty else { return }
        var taken: [ObjectIdentifier: [ObjectID]] = [:]
        for name in controllers.keys.sorted() {
            let controller = controllers[name]!
            let key = ObjectIdentifier(controller.context)
            if taken[key] == nil { taken[key] = controller.context.takeProcessedChanges() }
            controller.process(taken[key]!, isKind: isKind)
        }
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
        let sections = controller.sectionList { ids.name(of: $0) }
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
