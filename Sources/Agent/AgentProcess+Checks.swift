import SharedStore
import Trace

/// How often a `within` check re-reads the view while it waits.
private let recheckNanos: UInt64 = 2_000_000

/// Nanoseconds from now until `deadline`, or 0 once it has passed.
func nanosLeft(until deadline: UInt64) -> UInt64 {
    let now = MonotonicTime.now()
    return deadline > now ? deadline - now : 0
}

extension AgentProcess {
    /// `read`: what the view shows for the object now, re-read until it matches or `within` passes.
    func checkRead(_ name: String, expect: TraceValues?, absent: Bool, withinNanos: UInt64, workload: Bool) throws {
        let expected = try expect.map { try normalized($0, for: name) }
        let checked = expected != nil || absent
        let deadline = MonotonicTime.now() + withinNanos
        while true {
            var observation = observe(name, workload: workload)
            let matches = absent ? !observation.found : expected.map { matchesExpectation(observation, $0) } ?? true
            let done = matches || MonotonicTime.now() >= deadline
            observation.final = done
            record(.observed(observation))
            if done {
                if checked {
                    record(.check(CheckRecord(
                        kind: absent ? "read-absent" : "read", subject: name, expected: expected ?? [:],
                        actual: observation.values, passed: matches, withinNanos: withinNanos)))
                }
                return
            }
            idle(forNanos: min(recheckNanos, nanosLeft(until: deadline)))
        }
    }

    /// `count`: the objects of `entity` in the view (matching `predicate`), until the count is right.
    func checkCount(_ entity: String, predicate: String?, expect: Int?, withinNanos: UInt64) throws {
        let filter = try predicate.map { try FetchPredicate($0) }
        let deadline = MonotonicTime.now() + withinNanos
        while true {
            let names = try viewNames(entity, filter: filter)
            let matches = expect.map { names.count == $0 } ?? true
            let done = matches || MonotonicTime.now() >= deadline
            let deleted = currentContext.deletedObjects.filter { $0.entity == entity }.map { ids.name(of: $0) }
            record(.counted(CountObservation(entity: entity, predicate: predicate, ids: names, final: done,
                                             store: openedCopyName, deletedUnsaved: deleted.isEmpty ? nil : deleted.sorted())))
            if done {
                if let expect {
                    record(.check(CheckRecord(
                        kind: "count", subject: entity, expectedCount: expect, actualCount: names.count,
                        passed: matches, withinNanos: withinNanos)))
                }
                return
            }
            idle(forNanos: min(recheckNanos, nanosLeft(until: deadline)))
        }
    }

    /// One read of the view: fires the object's fault by the staleness rules, runs no fetch.
    func observe(_ name: String, workload: Bool) -> Observation {
        let context = currentContext
        guard let id = ids[name], context.viewContains(id) else {
            let deleted = ids[name].map { context.isDeleted($0) } ?? false
            return Observation(object: name, found: false, workload: workload, store: openedCopyName,
                               deletedUnsaved: deleted ? true : nil)
        }
        let wasFault = context.isFault(id)
        lastFaultSource = nil
        do {
            let values = try context.values(of: id)
            let source = wasFault ? (lastFaultSource ?? "cache") : "memory"
            return Observation(
                object: name, found: true, values: values.traceValues, version: context.version(of: id),
                dirty: (dirty[id] ?? []).sorted(), source: source, workload: workload, store: openedCopyName)
        } catch {
            record(.error(errorRecord(error, expected: nil)))
            return Observation(object: name, found: true, source: "error", workload: workload, store: openedCopyName)
        }
    }

    /// The scenario names of the view's objects of `entity` that match `filter`, sorted.
    func viewNames(_ entity: String, filter: FetchPredicate?) throws -> [String] {
        let context = currentContext
        var names: [String] = []
        for id in context.viewObjects(entity: entity) {
            if let filter, !filter.evaluate((try? context.values(of: id)) ?? [:]) { continue }
            names.append(ids.name(of: id))
        }
        return names.sorted()
    }

    /// The expected values converted through the model's types, so they compare like read values.
    private func normalized(_ values: TraceValues, for name: String) throws -> TraceValues {
        guard let entity = ids[name]?.entity else { return values }
        var result: TraceValues = [:]
        for (key, value) in values {
            if let type = attributeType(entity, key), let stored = try? value.storeValue(as: type, entity: entity, property: key) {
                result[key] = stored.traceValue
            } else {
                result[key] = value
            }
        }
        return result
    }

    private func matchesExpectation(_ observation: Observation, _ expected: TraceValues) -> Bool {
        guard observation.found else { return false }
        return expected.allSatisfy { key, value in observation.values[key]?.matches(value) ?? false }
    }

    /// After the final refresh: the view as a screen shows it, and what its fetches would add.
    func recordFinalView() {
        let context = currentContext
        var objects: [ObjectState] = []
        for id in context.view where !id.isTemporary {
            // This process's own unsaved edits are never anomalies: an unsaved insert is left out,
            // and so is each property it changed and has not saved.
            guard var values = try? context.values(of: id) else { continue }
            for property in dirty[id] ?? [] { values[property] = nil }
            objects.append(ObjectState(
                id: ids.name(of: id), entity: id.entity, version: context.version(of: id), values: values.traceValues))
        }
        var absent: Set<String> = []
        let fresh = (openedCopy ?? coordinator).newBackgroundContext(name: "final-check")
        for request in fetches {
            for id in (try? fresh.fetch(request)) ?? [] where !context.viewContains(id) {
                absent.insert(ids.name(of: id))
            }
        }
        record(.finalView(StateSnapshot(
            store: openedCopyName ?? config.store.traceName, objects: objects,
            absent: absent.sorted())))
    }
}
