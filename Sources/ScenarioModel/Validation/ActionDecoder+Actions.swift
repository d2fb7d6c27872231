import Basics

/// Decoding the actions that take an argument, and checking the objects, entities and copies they name.
extension ActionDecoder {
    /// `controller: inbox` on a fetch: the controller's name, which needs `sort:` (an
    /// `NSFetchedResultsController` requires sort descriptors).
    func decodeController(_ node: YAMLNode, sort: [SortKey], map: MappingReader) -> String? {
        guard let name = decoder.name(node, "the fetched-results controller's name") else { return nil }
        // Known even when refused below: a check naming it would otherwise only echo this error.
        references.fetchedResultsControllers.insert(name)
        guard !sort.isEmpty || map["sort"] != nil else {
            decoder.error("a fetched-results controller needs a sort order, as NSFetchedResultsController requires sort "
                + "descriptors; add sort:, like { fetch: Note, sort: title, controller: \(name) }.", at: node)
            return nil
        }
        return name
    }

    /// `sections: folder`: an attribute of the fetched entity, which the first sort key must be (the
    /// controller groups its sections by the first sort descriptor).
    func decodeSections(_ node: YAMLNode, entity: EntityDescription?, sort: [SortKey], sortNode: YAMLNode?) -> String? {
        guard let attribute = decoder.string(node, "the attribute that names the sections, like folder") else { return nil }
        if let entity, entity.attribute(named: attribute) == nil {
            decoder.error("sections: names '\(attribute)', which is no attribute of \(entity.name)"
                + Suggestion.hint(for: attribute, in: entity.attributes.map(\.name)), at: node)
            return nil
        }
        guard sort.first?.attribute == attribute else {
            decoder.error("the controller's sections come from its first sort key, as NSFetchedResultsController groups them: "
                + "sort by \(attribute) first, like sort: \"\(attribute), ...\".", at: sortNode ?? node)
            return nil
        }
        return attribute
    }

    func decodeArgumentAction(_ action: ActionWord, _ argument: YAMLNode, _ map: MappingReader, process: String) -> Step? {
        switch action {
        case .insert: return decodeInsert(argument, map)
        case .update:
            let target = objectReference(argument)
            let values = map.required("set", in: "the update step", example: "{ update: n1, set: { title: B } }")
                .map { decoder.attributeValues($0, entity: target?.entity, "the values to set") }
            guard let target, let values else { return nil }
            return .update(id: target.id, values: values)
        case .delete:
            return objectReference(argument).map { .delete(id: $0.id) }
        case .toggle:
            return decodeToggle(argument, map, process: process)
        case .push:
            return decoder.payload(argument).map { .push($0) }
        case .relate, .unrelate:
            return decodeRelate(action.rawValue, argument, map)
        case .fetch:
            let entity = entityReference(argument)
            let predicate = map["where"].flatMap { decodePredicate($0, entity: entity?.model) }
            let sort = map["sort"].map { decodeSort($0, entity: entity?.model) } ?? []
            var options = FetchOptions()
            var valid = true
            if let node = map["limit"] {
                options.limit = decoder.int(node, "the fetch limit", in: 1...Limits.objects)
                valid = options.limit != nil
            }
            if let node = map["includes-pending-changes"] {
                guard let value = decoder.bool(node, "includes-pending-changes") else { return nil }
                options.includesPendingChanges = value
            }
            if let node = map["returns-objects-as-faults"] {
                guard let value = decoder.bool(node, "returns-objects-as-faults") else { return nil }
                options.returnsObjectsAsFaults = value
            }
            if let node = map["refreshes-refetched-objects"] {
                guard let value = decoder.bool(node, "refreshes-refetched-objects") else { return nil }
                options.refreshesRefetchedObjects = value
            }
            if let node = map["prefetch"] {
                guard let paths = decodePrefetch(node, entity: entity?.model) else { return nil }
                options.prefetch = paths
            }
            if let node = map["controller"] {
                guard let name = decodeController(node, sort: sort, map: map) else { return nil }
                options.controller = name
                if let sections = map["sections"] {
                    guard let attribute = decodeSections(sections, entity: entity?.model, sort: sort, sortNode: map["sort"]) else { return nil }
                    options.sections = attribute
                }
            } else if let node = map.keyNode("sections") {
                decoder.error("sections: names a fetched-results controller's sections; give the controller too, like "
                    + "{ fetch: Note, sort: folder, controller: inbox, sections: folder }.", at: node)
                return nil
            }
            guard valid else { return nil }
            return entity.map { .fetch(entity: $0.name, predicate: predicate, sort: sort, options: options) }
        case .refresh:
            let target = objectReference(argument)
            let merge = map["merge"].flatMap { decoder.bool($0, "merge") } ?? true
            return target.map { .refresh(id: $0.id, mergeChanges: merge) }
        case .batchInsert, .batchUpdate, .batchDelete:
            return decodeBatch(action.rawValue, argument, map)
        case .pinGeneration:
            // `current`, or the context whose generation to share: `view` or a background context's name.
            guard let source = decoder.name(argument, "current, view or a background context's name") else { return nil }
            if source == "store" {
                decoder.error("'store' names no context; pin from view or from a background context's name, or write "
                    + "{ pin-generation: current }.", at: argument)
                return nil
            }
            return .pinGeneration(from: source == "current" ? nil : source)
        case .purgeHistory:
            var expected: Int?
            if let expect = map["expect"] {
                guard let counts = MappingReader(expect, "what the purge deletes, like { deleted: 2 }", decoder) else { return nil }
                counts.rejectUnknownKeys(["deleted"], in: "the purge's expect")
                guard let count = counts.required("deleted", in: "the purge's expect", example: "expect: { deleted: 2 }")
                    .flatMap({ decoder.int($0, "the number of transactions the purge deletes", in: 0...Limits.objects) })
                else { return nil }
                expected = count
            }
            // `purge-history: true` with an expect: the process's own purge setting.
            if argument.scalar.map({ ["true", "True", "TRUE"].contains($0) }) == true, !argument.isQuoted {
                return .purgeHistory(policy: nil, expectDeleted: expected)
            }
            return decoder.purgePolicy(argument, "purge-history").map { .purgeHistory(policy: $0, expectDeleted: expected) }
        case .post:
            return decoder.name(argument, "a notification name").map { .post(name: $0) }
        case .copyStore:
            guard let name = decoder.name(argument, "a name for the copy, like backup") else { return nil }
            // A step's per-variant versions decode its copy-store again: the same node is no second copy.
            if let earlier = copies[name], earlier.line != argument.line || earlier.column != argument.column {
                decoder.error("a copy named '\(name)' is already taken at line \(earlier.line); give this one "
                    + "another name.", at: argument)
            }
            copies[name] = argument
            let withWAL = map["with-wal"].flatMap { decoder.bool($0, "with-wal") } ?? true
            return .copyStore(name: name, withWAL: withWAL)
        case .openCopy:
            return copyReference(argument).map { .openCopy(name: $0) }
        case .read, .count, .state, .results:
            return decodeCheck(action.rawValue, argument, map)
        case .reloadTimelines, .reloadControls:
            // A widget's timelines, or a control's value: the request names one of that role, or all of them.
            let role: ProcessRole = action == .reloadTimelines ? .widget : .control
            guard let name = processReference(argument, "a \(role.rawValue) process") else { return nil }
            if let declared = processes.first(where: { $0.name == name }), declared.role != role {
                decoder.error("\(action.rawValue) reloads a \(role.rawValue), and '\(name)' has role: \(declared.role.rawValue); name a "
                    + "process with role: \(role.rawValue), or write \(action.rawValue): true for every \(role.rawValue).", at: argument)
                return nil
            }
            return role == .widget ? .reloadTimelines(widget: name) : .reloadControls(control: name)
        // Written bare only (`ActionWord.modifiers` is nil): the decoder never asks.
        case .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe, .deliver, .save,
             .rollback, .reset, .runRefresh, .unpinGeneration, .beginWrite, .endWrite, .mergeHistory, .checkpoint, .sync,
             .leech:
            return nil
        }
    }

    /// `{ toggle: l1, property: isOn, reads: control }`: a boolean attribute of a known object, negated from
    /// what the control shows (`reads: control`, the default for an intent a control's tap runs, and only
    /// there) or from what the step's context holds (`reads: context`, the default elsewhere).
    private func decodeToggle(_ argument: YAMLNode, _ map: MappingReader, process: String) -> Step? {
        let target = objectReference(argument)
        let propertyNode = map.required("property", in: "the toggle step", example: "{ toggle: l1, property: isOn }")
        let property = propertyNode.flatMap { decoder.name($0, "a boolean attribute like isOn") }
        if let entity = target?.entity, let property, let propertyNode {
            if let attribute = entity.attribute(named: property) {
                if attribute.type != .bool {
                    decoder.error("toggle negates a bool, and \(entity.name).\(property) is \(attribute.type); write an update "
                        + "with the value you mean, like { update: \(target?.id ?? "x"), set: { \(property): ... } }.", at: propertyNode)
                    return nil
                }
            } else {
                decoder.error("\(entity.name) has no attribute '\(property)'" + Suggestion.hint(
                    for: property, in: entity.attributes.filter { $0.type == .bool }.map(\.name),
                    otherwise: "toggle names one of its bool attributes."), at: propertyNode)
                return nil
            }
        }
        let control = processes.first { $0.name == process }.flatMap { $0.role == .intent ? $0.settings.control : nil }
        var reads: ToggleReading = control == nil ? .context : .control
        if let node = map["reads"] {
            guard let value = decoder.keyword(node, ToggleReading.self, "toggle reading (reads:)") else { return nil }
            if value == .control, control == nil {
                decoder.error("reads: control negates what the control whose tap runs the intent shows, and '\(process)' is "
                    + "no intent a control runs (control:); write reads: context, or give the intent control: <name>.", at: node)
                return nil
            }
            reads = value
        }
        guard let target, let property else { return nil }
        if reads == .control, let control { references.toggles.append((control: control, id: target.id, node: argument)) }
        return .toggle(id: target.id, property: property, reads: reads)
    }

    private func decodeInsert(_ argument: YAMLNode, _ map: MappingReader) -> Step? {
        let entity = entityReference(argument)
        if let entity, entity.model?.isAbstract == true {
            let subs = (model?.entities ?? []).filter { $0.parent == entity.name }.map(\.name)
            decoder.error("\(entity.name) is an abstract entity: insert one of its sub-entities"
                + (subs.isEmpty ? "" : " (\(subs.joined(separator: ", ")))") + ".", at: argument)
            return nil
        }
        let idNode = map.required("id", in: "the insert step", example: "{ insert: Note, id: n1 }")
        let id = idNode.flatMap { decoder.name($0, "an object id like n1") }
        let values = map["set"].map { decoder.attributeValues($0, entity: entity?.model, "the values to set") } ?? [:]
        guard let id, let idNode else { return nil }
        if let existing = objects[id], let existingEntity = existing, let entity, existingEntity != entity.name,
           let origin = objectOrigins[id] {
            decoder.error("the id '\(id)' names a \(existingEntity) inserted at line \(origin.line); one id names one "
                + "logical object, so give this \(entity.name) another id.", at: idNode)
        }
        if objects[id] == nil {
            objects[id] = .some(entity?.name)
            objectOrigins[id] = idNode
        }
        guard let entity else { return nil }
        // One unique value names one row: a second id for it would name the first's row under another
        // name, and the checkers could not tell them apart.
        for names in entity.model?.allUniquenessConstraints ?? [] {
            let held = names.map { values[$0] ?? .null }
            guard !held.contains(.null) else { continue }
            let shown = held.map { "\($0)" }.joined(separator: ", ")
            let key = "\(entity.name).\(names.joined(separator: ","))=\(shown)"
            if let (other, node) = uniqueValues[key], other != id {
                let what = names.count == 1 ? "\(entity.name).\(names[0]) is unique" : "(\(names.joined(separator: ", "))) is unique in \(entity.name)"
                decoder.error("\(what), and '\(other)' (line \(node.line)) already has \(shown); "
                    + "give this insert the id '\(other)', as it is the same logical object.", at: idNode)
            } else if uniqueValues[key] == nil {
                uniqueValues[key] = (id, idNode)
            }
        }
        return .insert(entity: entity.name, id: id, values: values)
    }

    private func decodeRelate(_ action: String, _ argument: YAMLNode, _ map: MappingReader) -> Step? {
        let otherKey = action == "relate" ? "to" : "from"
        let example = "{ \(action): n1, \(otherKey): t1, via: tags }"
        let source = objectReference(argument)
        let other = map.required(otherKey, in: "the \(action) step", example: example).flatMap(objectReference)
        guard let viaNode = map.required("via", in: "the \(action) step", example: example),
              let via = decoder.string(viaNode, "a relationship name") else { return nil }
        if let entity = source?.entity {
            if let relationship = entity.relationship(named: via) {
                if let otherEntity = other?.entity, !isKind(otherEntity.name, of: relationship.destination) {
                    decoder.error("\(entity.name).\(via) leads to \(relationship.destination), but '\(other!.id)' is a "
                        + "\(otherEntity.name); relate a \(relationship.destination) instead.", at: map[otherKey]!)
                }
            } else if entity.attribute(named: via) != nil {
                decoder.error("'\(via)' is an attribute of \(entity.name), not a relationship; change it with "
                    + "{ update: \(source!.id), set: { \(via): ... } }.", at: viaNode)
            } else {
                let names = entity.relationships.map(\.name)
                decoder.error("\(entity.name) has no relationship '\(via)'"
                    + (names.isEmpty ? "; declare one in the model, like tags: [Tag]." : Suggestion.hint(for: via, in: names)),
                    at: viaNode)
            }
        }
        // `at: 0`: a position in an ordered to-many (`insert(_:at:)`), from 0.
        var position: Int?
        if action == "relate", let atNode = map["at"] {
            position = decoder.int(atNode, "a position in the ordered relationship (from 0)", in: 0...Limits.objects)
            if let relationship = source?.entity?.relationship(named: via), !(relationship.isToMany && relationship.isOrdered) {
                decoder.error("at: places an object in an ordered to-many, and \(source!.entity!.name).\(via) is "
                    + (relationship.isToMany ? "unordered; declare it \"[\(relationship.destination)] ordered\" in the model, or remove at:."
                        : "a to-one; remove at:."), at: atNode)
                return nil
            }
            guard position != nil else { return nil }
        }
        guard let source, let other else { return nil }
        return action == "relate" ? .relate(id: source.id, to: other.id, via: via, at: position)
            : .unrelate(id: source.id, from: other.id, via: via)
    }

    private func decodeBatch(_ action: String, _ argument: YAMLNode, _ map: MappingReader) -> Step? {
        let entity = entityReference(argument)
        if let entity, action == "batch-insert", entity.model?.isAbstract == true {
            decoder.error("\(entity.name) is an abstract entity: batch-insert one of its sub-entities.", at: argument)
            return nil
        }
        let predicate = map["where"].flatMap { decodePredicate($0, entity: entity?.model) }
        switch action {
        case "batch-insert":
            let count = map.required("count", in: "the batch-insert step", example: "{ batch-insert: Note, count: 1000 }")
                .flatMap { decoder.int($0, "count", in: 1...Limits.objects) }
            let values = map["set"].map { decoder.attributeValues($0, entity: entity?.model, "the values to set") } ?? [:]
            guard let entity, let count else { return nil }
            return .batchInsert(entity: entity.name, count: count, values: values)
        case "batch-update":
            let values = map.required("set", in: "the batch-update step", example: "{ batch-update: Note, set: { pinned: true } }")
                .map { decoder.attributeValues($0, entity: entity?.model, "the values to set") }
            guard let entity, let values else { return nil }
            return .batchUpdate(entity: entity.name, predicate: predicate, values: values)
        default:
            return entity.map { .batchDelete(entity: $0.name, predicate: predicate) }
        }
    }

    /// The name of a copy an earlier `copy-store` took (`open-copy`, `restore-store`).
    func copyReference(_ node: YAMLNode) -> String? {
        guard let name = decoder.name(node, "the name of a copy taken by copy-store") else { return nil }
        guard copies[name] != nil else {
            let hint = copies.isEmpty ? "." : Suggestion.hint(for: name, in: copies.keys.sorted(), listing: true)
            decoder.error("no earlier copy-store step takes a copy named '\(name)'; take it first with "
                + "{ copy-store: \(name) }" + hint, at: node)
            return nil
        }
        return name
    }

    /// An object id inserted by an earlier step, with its entity when known.
    func objectReference(_ node: YAMLNode) -> (id: String, entity: EntityDescription?)? {
        guard let id = decoder.name(node, "an object id like n1") else { return nil }
        guard let entry = objects[id] else {
            var message = "no earlier step inserts an object with id '\(id)'"
            if let near = Suggestion.nearest(to: id, in: objects.keys.sorted()) {
                message += "; did you mean '\(near)'?"
            } else {
                message += "; insert it first, like { insert: Note, id: \(id) }."
            }
            if sawWorkload, id.first == "k", Int(id.dropFirst()) != nil {
                message += " Ids a workload makes (k1, k2, ...) cannot be named by steps."
            }
            decoder.error(message, at: node)
            return nil
        }
        return (id, entry.flatMap { model?.entity(named: $0) })
    }

    /// `prefetch:` a relationship key path or a list of them (`[folder, tags.owner]`), each step of a path a
    /// relationship of the entity the step before leads to, as `relationshipKeyPathsForPrefetching` takes.
    private func decodePrefetch(_ node: YAMLNode, entity: EntityDescription?) -> [String]? {
        guard let paths = decoder.scalarList(node, "the relationships to prefetch", allowingSingle: true) else { return nil }
        if node.items?.isEmpty == true {
            decoder.error("prefetch: [] prefetches nothing; list relationships like [folder, tags.owner], or leave it out.", at: node)
            return nil
        }
        var valid = paths.count == (node.items?.count ?? 1)
        for (path, at) in paths {
            if path.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
                decoder.error("prefetch names '\(path)', a key path with an empty step; join relationship names with dots, "
                    + "like folder.owner.", at: at)
                valid = false
                continue
            }
            var current = entity
            for name in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard let here = current else { break }
                guard let relationship = here.relationship(named: name) else {
                    let names = here.relationships.map(\.name)
                    decoder.error("prefetch names '\(path)', but \(here.name) has no relationship '\(name)'"
                        + (names.isEmpty ? "; only relationships can be prefetched." : Suggestion.hint(for: name, in: names)), at: at)
                    valid = false
                    break
                }
                current = model?.entity(named: relationship.destination)
            }
        }
        return valid ? paths.map(\.0) : nil
    }

    /// An entity of the model (nil and no error when the model itself could not be read).
    func entityReference(_ node: YAMLNode) -> (name: String, model: EntityDescription?)? {
        guard let name = decoder.string(node, "an entity name like Note") else { return nil }
        guard let model else { return (name, nil) }
        if let entity = model.entity(named: name) { return (name, entity) }
        decoder.error("unknown entity '\(name)'" + Suggestion.hint(for: name, in: model.entityNames), at: node)
        return nil
    }
}
