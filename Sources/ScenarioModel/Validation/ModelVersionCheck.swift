import Basics

/// Checks the steps of a process that opens the store with a model version of its own against that version,
/// once the file is read: what a step names by id must be of an entity the version has. A variant that
/// gives a process another model version (`share: { model: v1 }`) has the process's steps checked again, in
/// that variant, against the one it gives (they were decoded against the version the process declares).
struct ModelVersionCheck {
    /// The declared processes.
    let processes: [ProcessDeclaration]
    /// `store.models`, oldest first.
    let modelVersions: [ModelVersion]
    /// The objects the steps insert: id -> entity name (nil when the entity is unknown).
    let objects: [String: String?]

    /// Reports each step a process's model version cannot carry out, at the step.
    func check(_ steps: [ScenarioStep], variants: [Variant], into decoder: NodeDecoder) {
        // The version a process declares: what its steps name by id must be of an entity it has (its
        // other references were checked against that version as they were decoded).
        for declared in processes {
            guard let version = declared.settings.modelVersion,
                  let model = modelVersions.first(where: { $0.name == version })?.model else { continue }
            for step in flatten(steps) + declared.allWork where step.process == declared.name {
                guard let id = step.step.objectID, let name = objects[id] ?? nil, model.entity(named: name) == nil else { continue }
                decoder.error("'\(declared.name)' opens the store with \(version), whose model has no entity \(name), so it can "
                    + "never show \(id); use a process with a version that has \(name).",
                    line: step.location.line, column: step.location.column)
            }
        }
        for variant in variants {
            for override in variant.overrides {
                guard let version = override.settings.reversed().compactMap({ setting -> String? in
                    if case .modelVersion(let name) = setting { return name } else { return nil }
                }).first,
                    let declared = processes.first(where: { $0.name == override.process }),
                    version != declared.settings.modelVersion,
                    let model = modelVersions.first(where: { $0.name == version })?.model
                else { continue }
                let own = (processes.first { $0.name == override.process }?.allWork ?? [])
                for step in flatten(steps) + own where step.process == override.process && runs(step, in: variant.name) {
                    guard let problem = problem(with: step.step, in: model) else { continue }
                    decoder.error("in variant '\(variant.name)', '\(override.process)' opens the store with \(version), and "
                        + "\(problem); give that variant's steps only-in:, or keep the version the steps were written for.",
                        line: step.location.line, column: step.location.column)
                }
            }
        }
    }

    private func flatten(_ steps: [ScenarioStep]) -> [ScenarioStep] {
        steps.flatMap { step -> [ScenarioStep] in
            if let children = step.step.nestedSteps { return flatten(children) }
            return [step]
        }
    }

    private func runs(_ step: ScenarioStep, in variant: String) -> Bool {
        (step.onlyIn.map { $0.contains(variant) } ?? true) && !(step.exceptIn?.contains(variant) ?? false)
    }

    /// What in `step` the model does not have: an entity, an attribute or a relationship it names.
    private func problem(with step: Step, in model: ModelDescription) -> String? {
        func entity(_ name: String) -> EntityDescription? { model.entity(named: name) }
        func missing(_ name: String) -> String { "its model has no entity \(name)" }
        func check(_ names: some Sequence<String>, on entity: EntityDescription) -> String? {
            for name in names where entity.attribute(named: name) == nil && entity.relationship(named: name) == nil {
                return "its \(entity.name) has no property '\(name)'"
            }
            return nil
        }
        func object(_ id: String) -> EntityDescription?? {
            guard let name = objects[id] ?? nil else { return .some(nil) }
            return entity(name).map { .some($0) } ?? nil
        }
        switch step {
        case .insert(let name, _, let values), .batchInsert(let name, _, let values):
            guard let found = entity(name) else { return missing(name) }
            return check(values.keys, on: found)
        case .batchUpdate(let name, let predicate, let values):
            guard let found = entity(name) else { return missing(name) }
            return check(values.keys, on: found) ?? check(predicate?.attributes ?? [], on: found)
        case .fetch(let name, let predicate, let sort, _):
            guard let found = entity(name) else { return missing(name) }
            return check((predicate?.attributes ?? []).union(sort.map(\.attribute)), on: found)
        case .count(let name, _, let predicate, _), .batchDelete(let name, let predicate):
            guard let found = entity(name) else { return missing(name) }
            return check(predicate?.attributes ?? [], on: found)
        case .update(let id, let values):
            guard case .some(let found) = object(id) else { return "its model has no entity for \(id)" }
            return found.flatMap { check(values.keys, on: $0) }
        case .relate(let id, _, let via, _), .unrelate(let id, _, let via), .toggle(let id, let via, _):
            guard case .some(let found) = object(id) else { return "its model has no entity for \(id)" }
            return found.flatMap { check([via], on: $0) }
        case .read(let id, let expectation, _):
            guard case .some(let found) = object(id) else { return "its model has no entity for \(id)" }
            guard case .values(let values, let related)? = expectation else { return nil }
            return found.flatMap { check(Array(values.keys) + Array(related.keys), on: $0) }
        case .delete(let id), .refresh(let id, _), .state(let id, _, _):
            guard case .some = object(id) else { return "its model has no entity for \(id)" }
            return nil
        // Steps that name no entity, attribute or object of the model.
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver, .push,
             .reloadTimelines, .reloadControls, .reload, .autosave, .save, .rollback, .reset, .refreshAll, .runRefresh,
             .pinGeneration, .unpinGeneration, .beginWrite, .endWrite, .mergeHistory, .purgeHistory, .post, .checkpoint,
             .copyStore, .openCopy, .sync, .leech, .results, .sleep, .parallel, .sequence, .advanceClock, .workload,
             .fault, .restoreStore, .appUpdate:
            return nil
        }
    }
}

extension Step {
    /// The object a step names by its scenario id (not an insert's new one).
    var objectID: String? {
        switch self {
        case .update(let id, _), .delete(let id), .relate(let id, _, _, _), .unrelate(let id, _, _), .read(let id, _, _),
             .refresh(let id, _), .state(let id, _, _), .toggle(let id, _, _):
            id
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver, .push,
             .reloadTimelines, .reloadControls, .reload, .autosave, .insert, .save, .rollback, .reset, .fetch, .refreshAll,
             .runRefresh, .batchInsert, .batchUpdate, .batchDelete, .pinGeneration, .unpinGeneration, .beginWrite,
             .endWrite, .mergeHistory, .purgeHistory, .post, .checkpoint, .copyStore, .openCopy, .sync, .leech, .count,
             .results, .sleep, .parallel, .sequence, .advanceClock, .workload, .fault, .restoreStore, .appUpdate:
            nil
        }
    }
}
