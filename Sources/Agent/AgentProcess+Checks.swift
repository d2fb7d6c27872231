import Basics
import SharedStore
import Trace

// A check reads once per request. The runner decides how long it waits (`within`): it asks again, after
// whatever could change the view, until the deadline has passed, and says which attempt is the last.

extension AgentProcess {
    /// `read`: what the view shows for the object now, re-read until it matches or `within` passes.
    func checkRead(_ name: String, expect: TraceValues?, absent: Bool, withinNanos: UInt64, workload: Bool,
                   related: [String: [String]]? = nil) throws {
        let expected = try expect.map { try normalized($0, for: name) }
        let checked = expected != nil || absent || related != nil
        do {
            let started = time.reading()
            lastReadError = nil
            var observation = related.map { observeRelated(name, Array($0.keys), workload: workload) } ?? observe(name, workload: workload)
            let relatedMatch = related.map { wanted in wanted.allSatisfy { observation.related?[$0.key] == $0.value } } ?? true
            let matches = absent ? !observation.found : (expected.map { matchesExpectation(observation, $0) } ?? true) && relatedMatch
            lastCheckMatched = matches
            let done = matches || isLastAttempt
            observation.final = done
            if done { observation.viewAsOf = viewAsOf(started) }
            record(.observed(observation), start: started)
            // Only a control's reads are what it shows: the runner keeps them for a tap, from the reply.
            if config.role.traits.display == .value {
                lastObservation = observation
                shownByReads.insert(name)
            }
            if let error = lastReadError {
                // Firing the fault threw (a row gone, with `delete-inaccessible-faults: false`): as Core Data's
                // accessor raises, the read fails; a step that said `expect-error` with that kind is met.
                lastReadError = nil
                if done, let expected = expectedError, errorKind(of: error) == expected { throw error }
                record(.error(errorRecord(error, expected: nil)))
            }
            if done && checked {
                record(.check(CheckRecord(
                    kind: absent ? .readAbsent : .read, subject: name, expected: expected ?? [:],
                    actual: observation.values, passed: matches, withinNanos: withinNanos,
                    expectedRelated: related, actualRelated: related == nil ? nil : observation.related ?? [:])))
            }
        }
    }

    /// `count`: the objects of `entity` in the view (matching `predicate`), until the count is right.
    func checkCount(_ entity: String, predicate filter: FetchPredicate?, expect: Int?, withinNanos: UInt64) throws {
        do {
            let started = time.reading()
            let (names, hidden) = try viewNames(entity, filter: filter)
            let matches = expect.map { names.count == $0 } ?? true
            lastCheckMatched = matches
            let done = matches || isLastAttempt
            var observation = listObservation(entity, filter: filter, shown: names, hidden: { hidden }, in: currentContext, final: done)
            if done { observation.viewAsOf = viewAsOf(started) }
            record(.counted(observation), start: started)
            if done, let expect {
                record(.check(CheckRecord(
                    kind: .count, subject: entity, expectedCount: expect, actualCount: names.count,
                    passed: matches, withinNanos: withinNanos)))
            }
        }
    }

    /// The deadline of the check under way when its attempt, begun at `started`, came after it: the
    /// process has held back what was posted since (`handleNotifications`), so its view shows other
    /// processes' commits as of the deadline. Nil for an attempt in time, or no check.
    func viewAsOf(_ started: UInt64) -> UInt64? {
        guard let deadline = checkDeadline, started > deadline else { return nil }
        return deadline
    }

    /// What a list of `entity` shows (a `count`'s, a fetched-results controller's), for the checkers to judge
    /// as a count: the objects `shown`, the process's own unsaved deletes and edits, and, on a final
    /// attempt, what the list should hold read from the store inside the check's interval and what its
    /// predicate leaves out (`hidden`, asked only then) by the values the context shows. `judged` false leaves out what the
    /// store holds: such a list is no count of it.
    func listObservation(_ entity: String, filter: FetchPredicate?, shown: [String], hidden: () -> [String],
                         in context: ObjectContext, final done: Bool, judged: Bool = true) -> CountObservation {
        let deleted = (context.deletedObjects + heldDeletes).filter { isKind($0.entity, of: entity) }.map { ids.name(of: $0) }
        var observation = CountObservation(
            entity: entity, predicate: filter?.description, ids: shown, final: done, store: openedCopyName,
            deletedUnsaved: deleted.isEmpty ? nil : deleted.sorted())
        // After an in-memory fallback the process's own store says nothing about the run's store, which
        // its list should show: the checkers judge the count against what was committed there.
        if done && judged && openedCopy == nil && !inMemoryFallback {
            let list = listed(entity, filter: filter)
            observation.listed = list.ids
            observation.fetchedAll = list.unfiltered
            if context.isQueryGenerationPinned { observation.pinned = true }
            observation.hidden = filter == nil ? nil : hidden()
            let edited = ownEditedObjects.filter { isKind($0.entity, of: entity) }.map { ids.name(of: $0) }
            observation.edited = edited.isEmpty ? nil : edited.sorted()
        }
        return observation
    }

    /// `state`: the object's `isFault`, `isDeleted` and registration in the context, read without firing
    /// anything, until they are as expected or `within` passes.
    func checkState(_ name: String, expect: TraceValues, withinNanos: UInt64) {
        do {
            let context = currentContext
            var actual: TraceValues = [:]
            let id = ids[name]
            for key in expect.keys {
                let flag: Bool = switch key {
                case "fault": id.map { context.isFault($0) } ?? true
                case "deleted": id.map { context.isDeleted($0) || heldDeletes.contains($0) } ?? false
                default: id.map { context.isRegistered($0) } ?? false
                }
                actual[key] = .bool(flag)
            }
            let matches = actual == expect
            lastCheckMatched = matches
            if matches || isLastAttempt {
                record(.check(CheckRecord(kind: .state, subject: name, expected: expect, actual: actual, passed: matches,
                                          withinNanos: withinNanos)))
            }
        }
    }

    /// One read of the view: fires the object's fault by the staleness rules, runs no fetch.
    func observe(_ name: String, workload: Bool) -> Observation {
        let context = currentContext
        // A step's own context (`context:`, an App Intent's) has no screen: code reads through it by ID
        // (`existingObject(with:)`, from the parent for a child), which puts the object in its view; the
        // view context shows what its lists and merges put there.
        if contextOverride != nil, openedCopy == nil, let id = ids[name], !context.viewContains(id),
           !context.isDeleted(id), !heldDeletes.contains(id) {
            _ = try? context.existingObject(with: id)
        }
        guard let id = ids[name], context.viewContains(id) else {
            let deleted = ids[name].map { context.isDeleted($0) || heldDeletes.contains($0) } ?? false
            var observation = Observation(object: name, found: false, workload: workload, store: openedCopyName,
                                          deletedUnsaved: deleted ? true : nil)
            if !deleted, !workload, openedCopy == nil, !inMemoryFallback, let id = ids[name], !id.isTemporary {
                observation.listed = listedByOwnFetches(id)
            }
            return observation
        }
        let wasFault = context.isFault(id)
        lastFaultSource = nil
        do {
            let values = try context.values(of: id)
            let source: ReadSource = wasFault ? (lastFaultSource ?? .cache) : .memory
            return Observation(
                object: name, found: true, values: values.traceValues, version: context.version(of: id),
                dirty: ownEdits(of: id).sorted(), source: source, workload: workload, store: openedCopyName)
        } catch {
            // Left to the read: the step fails with it when it expected it, else it is recorded beside.
            lastReadError = error
            return Observation(object: name, found: true, source: .error, workload: workload, store: openedCopyName)
        }
    }

    /// A read that also asks what `relationships` hold, in the view and in the store: the store's
    /// contents are read just before and just after the view's, and kept only when both agree, so they
    /// are what the store held throughout the read.
    func observeRelated(_ name: String, _ relationships: [String], workload: Bool) -> Observation {
        let before = storeRelated(name, relationships)
        var observation = observe(name, workload: workload)
        guard observation.found, let id = ids[name] else { return observation }
        var shown: [String: [String]] = [:]
        for relationship in relationships {
            shown[relationship] = listed(((try? currentContext.relatedObjects(of: id, via: relationship)) ?? []).map { ids.name(of: $0) },
                                         of: id, relationship)
        }
        observation.related = shown
        // With edits of its own pending (or inside a held write) the view may rightly differ from the
        // store: the read is then not judged.
        let ownEdits = currentContext.hasChanges || heldWrite != nil
        if !ownEdits, let before, before == storeRelated(name, relationships) { observation.relatedInStore = before }
        return observation
    }

    /// What the store holds in `relationships` of `name` now, read through the inspector (no cache, no
    /// pinned generation); nil when it cannot be read (a copy, an object not in the store).
    private func storeRelated(_ name: String, _ relationships: [String]) -> [String: [String]]? {
        guard openedCopy == nil, let id = ids[name], !id.isTemporary, let fresh = inspectorContext("related-check") else { return nil }
        var result: [String: [String]] = [:]
        for relationship in relationships {
            guard let related = try? fresh.relatedObjects(of: id, via: relationship) else { return nil }
            result[relationship] = listed(related.map { ids.name(of: $0) }, of: id, relationship)
        }
        return result
    }

    /// A to-many's members as a read shows them: in their order for an ordered to-many (an `NSOrderedSet`),
    /// sorted by name otherwise (a set has no order to judge).
    private func listed(_ names: [String], of id: ObjectID, _ relationship: String) -> [String] {
        let ordered = coordinator.model.relationships(of: id.entity)?.first { $0.name == relationship }?.isOrdered == true
        return ordered ? names : names.sorted()
    }

    /// Whether this process's own fetches of `id`'s entity return it from the store now (through the
    /// inspector: no cache, no pinned generation); nil when it never fetched the entity.
    private func listedByOwnFetches(_ id: ObjectID) -> Bool? {
        let requests = fetches.filter { isKind(id.entity, of: $0.entity) }
        guard !requests.isEmpty else { return nil }
        if !ownEdits(of: id).isEmpty {
            // Its own unsaved edits decide, as a fetch matches an edited object by its unsaved values.
            guard (try? currentContext.values(of: id)) != nil else { return nil }
            return requests.contains { $0.filter.map { currentContext.matches($0, id) } ?? true }
        }
        guard let fresh = inspectorContext("list-check") else { return nil }
        return requests.contains { ((try? fresh.fetch($0)) ?? []).contains(id) }
    }

    /// Whether the object matches `filter` in `context`; an object whose values cannot be read is matched
    /// as one with no values (a key path follows nothing from it).
    static func matches(_ filter: FetchPredicate, _ id: ObjectID, in context: ObjectContext) -> Bool {
        guard filter.followsRelationships, (try? context.values(of: id)) != nil else {
            return filter.evaluate((try? context.values(of: id)) ?? [:])
        }
        return context.matches(filter, id)
    }

    /// The scenario names of the view's objects of `entity` that match `filter`, sorted; and those the
    /// filter left out by the values the view shows.
    func viewNames(_ entity: String, filter: FetchPredicate?) throws -> (shown: [String], hidden: [String]) {
        let context = currentContext
        var names: [String] = []
        var hidden: [String] = []
        for id in context.viewObjects(entity: entity) {
            if let filter, !Self.matches(filter, id, in: context) {
                hidden.append(ids.name(of: id))
                continue
            }
            names.append(ids.name(of: id))
        }
        return (names.sorted(), hidden.sorted())
    }

    /// The committed objects of `entity` that this process's own fetches of it return from the store
    /// now (through a fresh context, so no cache and no pinned generation), matching `filter`: the
    /// list a screen built from those fetches should show. `unfiltered` when one fetch has no predicate.
    func listed(_ entity: String, filter: FetchPredicate?) -> (ids: [String], unfiltered: Bool) {
        // Fetches of the entity, or of a parent of it (which return its objects among others').
        let requests = fetches.filter { isKind(entity, of: $0.entity) }
        guard !requests.isEmpty, let fresh = inspectorContext("list-check") else { return ([], false) }
        var names: Set<String> = []
        for request in requests {
            // The list as the fetch would make it now: its predicate, sort and limit, without pending
            // changes (the inspector has none).
            for id in (try? fresh.fetch(request)) ?? [] where isKind(id.entity, of: entity) {
                if let filter, !Self.matches(filter, id, in: fresh) { continue }
                names.insert(ids.name(of: id))
            }
        }
        // A list of every object: a fetch with neither predicate nor limit.
        return (names.sorted(), requests.contains { $0.predicate == nil && $0.filter == nil && $0.fetchLimit == nil })
    }

    /// Whether objects of `entity` are objects of `ancestor`: the same entity, or a sub-entity of it.
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        entity == ancestor || coordinator.model.modelDescription.entity(entity, isKindOf: ancestor)
    }

    /// The properties of `id` holding this process's own edits: unsaved, or saved inside a held write
    /// that has not committed yet.
    func ownEdits(of id: ObjectID) -> Set<String> {
        (dirty[id] ?? []).union(heldWrite?.edits[id] ?? [])
    }

    /// Objects with own edits (see `ownEdits(of:)`).
    var ownEditedObjects: Set<ObjectID> {
        var result = Set(dirty.keys)
        if let held = heldWrite { result.formUnion(held.edits.keys) }
        return result
    }

    /// Objects deleted by a save inside a held write that has not committed yet.
    var heldDeletes: [ObjectID] { heldWrite.map { Array($0.deleted) } ?? [] }

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

    /// After the final refresh: the view as a screen shows it, and what its fetches would add. A control
    /// shows no list: only the objects its reads since the last record showed, as its value.
    func recordFinalView() {
        let context = currentContext
        let control = config.role.traits.display == .value
        let shown = shownByReads
        shownByReads = []
        var objects: [ObjectState] = []
        for id in context.view where !id.isTemporary && (!control || shown.contains(ids.name(of: id))) {
            // This process's own unsaved edits are never anomalies: an unsaved insert is left out,
            // and so is each property it changed and has not saved.
            var values: [String: Value]
            do {
                values = try context.values(of: id)
            } catch where error.code == .notFound {
                // A fault whose row is gone that cannot fire (`delete-inaccessible-faults: false`) stays
                // registered and on the list, as Core Data keeps it after the exception: shown, no values.
                objects.append(ObjectState(id: ids.name(of: id), entity: id.entity, values: [:],
                                           pk: openedCopy == nil ? id.primaryKey : nil))
                continue
            } catch {
                continue
            }
            for property in ownEdits(of: id) { values[property] = nil }
            objects.append(ObjectState(
                id: ids.name(of: id), entity: id.entity, version: context.version(of: id), values: values.traceValues,
                pk: openedCopy == nil ? id.primaryKey : nil))
        }
        var absent: Set<String> = []
        let fresh = (openedCopy ?? coordinator).newBackgroundContext(name: "final-check")
        for request in control ? [] : fetches {
            // An object this process deleted and has not saved is its own edit, not a missing one.
            for id in (try? fresh.fetch(request)) ?? [] where !context.viewContains(id) && !context.isDeleted(id) {
                absent.insert(ids.name(of: id))
            }
        }
        let whole = control ? [] : Set(fetches.filter { $0.predicate == nil && $0.filter == nil && $0.fetchLimit == nil && $0.includesSubentities }.map(\.entity))
        record(.finalView(StateSnapshot(
            store: openedCopyName ?? config.store.traceName, objects: objects,
            absent: absent.sorted(), fetchedAll: whole.isEmpty ? nil : whole.sorted())))
    }
}
