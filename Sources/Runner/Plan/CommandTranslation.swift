import Agent
import ScenarioModel
import Trace

extension ScenarioRunner {
    /// The agent command for a process step, or nil for lifecycle steps (the runner does those).
    func command(for step: Step, on slot: ProcessSlot) -> AgentCommand? {
        let model = plan.run.store.model(version: slot.modelVersion)
        switch step {
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .push, .reloadTimelines,
             .reloadControls, .reload:
            return nil
        case .sleep, .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore, .appUpdate:
            return nil
        case .observe: return .observe
        case .deliver: return .handleNotifications
        case .insert(let entity, let id, let values):
            let filled = model.entity(named: entity)?.valuesForInsert(objectID: id, explicit: values) ?? values
            return .insert(entity: entity, id: id, values: filled.traceValues)
        case .update(let id, let values): return .update(id: id, values: values.traceValues)
        case .delete(let id): return .delete(id: id)
        case .toggle(let id, let property, .context): return .toggle(id: id, property: property)
        // The control's value is the runner's to read (`executeToggle`): the intent receives its opposite.
        case .toggle(_, _, .control): return nil
        case .relate(let id, let to, let via, let at): return .relate(id: id, to: to, via: via, at: at)
        case .unrelate(let id, let from, let via): return .unrelate(id: id, from: from, via: via)
        case .save: return .save
        case .autosave: return .autosave
        case .rollback: return .rollback
        case .reset: return .reset
        case .fetch(let entity, let predicate, let sort, let options):
            return .fetch(entity: entity, predicate: predicate, sort: sort, options: options)
        case .refreshAll: return .refreshAll
        case .refresh(let id, let merge): return .refreshObject(id: id, merge: merge)
        case .runRefresh: return .runRefresh
        case .batchInsert(let entity, let count, let values):
            return .batchInsert(entity: entity, count: count, values: values.traceValues)
        case .batchUpdate(let entity, let predicate, let values):
            return .batchUpdate(entity: entity, predicate: predicate, values: values.traceValues)
        case .batchDelete(let entity, let predicate):
            return .batchDelete(entity: entity, predicate: predicate)
        case .pinGeneration(let source): return .pinGeneration(from: source)
        case .unpinGeneration: return .unpinGeneration
        case .beginWrite: return .beginWrite
        case .endWrite: return .endWrite
        case .mergeHistory: return .mergeHistory
        case .purgeHistory(let policy, let expected): return .purgeHistory(policy: policy, expectDeleted: expected)
        case .post(let name): return .post(name: name)
        case .checkpoint: return .checkpoint
        case .copyStore(let name, let withWAL): return .copyStore(name: name, withWAL: withWAL)
        case .openCopy(let name): return .openCopy(name: name)
        case .sync: return .sync
        case .leech: return .leech
        case .read(let id, let expectation, let timing):
            let expect: TraceValues?
            var related: [String: [String]]?
            switch expectation {
            case .values(let values, let relationships):
                expect = values.traceValues
                related = relationships.isEmpty ? nil : relationships
            case .absent, nil: expect = nil
            }
            return .read(id: id, expect: expect, absent: expectation == .absent, withinNanos: timing.nanos, workload: false,
                         related: related)
        case .count(let entity, let expected, let predicate, let timing):
            return .count(entity: entity, predicate: predicate, expect: expected, withinNanos: timing.nanos)
        case .results(let controller, let expectation, let timing):
            return .results(controller: controller, expect: expectation, withinNanos: timing.nanos)
        case .state(let id, let expectation, let timing):
            var flags: TraceValues = [:]
            if let fault = expectation.fault { flags["fault"] = .bool(fault) }
            if let deleted = expectation.deleted { flags["deleted"] = .bool(deleted) }
            if let registered = expectation.registered { flags["registered"] = .bool(registered) }
            return .state(id: id, expect: flags, withinNanos: timing.nanos)
        }
    }
}

extension CheckTiming {
    var nanos: UInt64 {
        switch self {
        case .now: 0
        case .within(let duration): duration.nanos
        }
    }
}
