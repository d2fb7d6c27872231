import Basics

/// Decoding checks (`read`, `count`), `where:` predicates and `sort:` keys.
extension ActionDecoder {
    func decodeCheck(_ action: String, _ argument: YAMLNode, _ map: MappingReader) -> Step? {
        let timing = decodeTiming(map)
        if action == "read" {
            let target = objectReference(argument)
            var expectation: ReadExpectation?
            if let expect = map["expect"] {
                if expect.scalar == "absent", !expect.isQuoted {
                    expectation = .absent
                } else if let pairs = expect.pairs {
                    // Relationships hold scenario ids; the rest are attributes.
                    let relationshipNames = Set(target?.entity?.relationships.map(\.name) ?? [])
                    var related: [String: [String]] = [:]
                    for pair in pairs {
                        guard let name = pair.key.scalar, relationshipNames.contains(name),
                              let relationship = target?.entity?.relationship(named: name) else { continue }
                        if let ids = relatedIDs(pair.value, relationship) { related[name] = ids }
                    }
                    let attributes = YAMLNode(kind: .mapping(pairs.filter { !relationshipNames.contains($0.key.scalar ?? "") }),
                                              line: expect.line, column: expect.column)
                    expectation = .values(decoder.attributeValues(attributes, entity: target?.entity, "the expected values"), related: related)
                } else {
                    decoder.error("expected the read's expect as values like { title: B }, or absent, but found "
                        + "\(expect.shortDescription).", at: expect)
                }
            }
            guard let target, let timing else { return nil }
            return .read(id: target.id, expectation: expectation, timing: timing)
        }
        if action == "results" { return decodeResults(argument, map, timing: timing) }
        if action == "state" {
            let target = objectReference(argument)
            let expectation = map.required("expect", in: "the state step", example: "{ state: n1, expect: { fault: true } }")
                .flatMap(decodeStateExpectation)
            guard let target, let expectation, let timing else { return nil }
            return .state(id: target.id, expectation: expectation, timing: timing)
        }
        let entity = entityReference(argument)
        let expectNode = map.required("expect", in: "the count step", example: "{ count: Note, expect: 3 }")
        var expected: Int?
        if let expectNode, let list = expectNode.items {
            // A count per reload or push: `expect: [3, 2]`.
            guard decodingSystemWork else {
                decoder.error("a list of counts, one per reload or push, is for a count in a widget's on-reload: or an "
                    + "extension's on-push:; here write one number, like expect: 3.", at: expectNode)
                return nil
            }
            guard !list.isEmpty else {
                decoder.error("name the count of each reload or push, like expect: [3, 2] (the last holds for every later one).", at: expectNode)
                return nil
            }
            let counts = list.compactMap { decoder.int($0, "the expected count", in: 0...Limits.objects) }
            guard counts.count == list.count else { return nil }
            perReloadCounts = counts
            expected = counts[0]
        } else {
            expected = expectNode.flatMap { decoder.int($0, "the expected count", in: 0...Limits.objects) }
        }
        let predicate = map["where"].flatMap { decodePredicate($0, entity: entity?.model) }
        guard let entity, let expected, let timing else { return nil }
        return .count(entity: entity.name, expected: expected, predicate: predicate, timing: timing)
    }

    /// What a read expects a relationship to hold: a list of object ids for a to-many (`[t1, t2]`, `[]`),
    /// one id or null for a to-one; each an object of the destination entity inserted by an earlier step.
    private func relatedIDs(_ node: YAMLNode, _ relationship: RelationshipDescription) -> [String]? {
        let items: [YAMLNode]
        if relationship.isToMany {
            guard let list = node.items else {
                decoder.error("'\(relationship.name)' is a to-many relationship: expect a list of \(relationship.destination) ids, "
                    + "like [t1, t2], or [] for none, but found \(node.shortDescription).", at: node)
                return nil
            }
            items = list
        } else if node.isNull {
            items = []
        } else if node.scalar != nil {
            items = [node]
        } else if let list = node.items, list.count <= 1 {
            // As written back (counterexamples write every relationship as a list): [n1] or [].
            items = list
        } else {
            decoder.error("'\(relationship.name)' is a to-one relationship: expect one \(relationship.destination) id, or null, "
                + "but found \(node.shortDescription).", at: node)
            return nil
        }
        var ids: [String] = []
        for item in items {
            guard let (id, entity) = objectReference(item) else { return nil }
            if ids.contains(id) {
                decoder.error("'\(id)' is listed twice; a relationship holds an object once.", at: item)
                return nil
            }
            if let entity, !isKind(entity.name, of: relationship.destination) {
                decoder.error("'\(id)' is a \(entity.name), and '\(relationship.name)' holds \(relationship.destination) objects.", at: item)
                return nil
            }
            ids.append(id)
        }
        // An ordered to-many is expected in the order written; a set in any.
        return relationship.isOrdered ? ids : ids.sorted()
    }

    /// `results: inbox` with `expect: [n2, n1]` (its objects in order) or `expect: { Work: [n1], Home: [n2] }`
    /// (its sections in order), and or `changes: 1` (its delegate calls since its fetch).
    private func decodeResults(_ argument: YAMLNode, _ map: MappingReader, timing: CheckTiming?) -> Step? {
        guard let name = decoder.name(argument, "the fetched-results controller's name") else { return nil }
        references.controllerChecks.append((name, argument))
        var expectation = ResultsExpectation()
        if let expect = map["expect"] {
            if let items = expect.items {
                guard let objects = controllerObjects(items) else { return nil }
                expectation.objects = objects
            } else if let pairs = expect.pairs {
                var sections: [ResultsSection] = []
                for pair in pairs {
                    guard let section = pair.key.scalar else { return nil }
                    guard let items = pair.value.items else {
                        decoder.error("expected the objects of section '\(section)' as a list, like [n1, n2], but found "
                            + "\(pair.value.shortDescription).", at: pair.value)
                        return nil
                    }
                    guard let objects = controllerObjects(items) else { return nil }
                    sections.append(ResultsSection(name: section, objects: objects))
                }
                expectation.sections = sections
            } else {
                decoder.error("expected the controller's objects in order, like [n2, n1], or its sections, like "
                    + "{ Work: [n1], Home: [n2] }, but found \(expect.shortDescription).", at: expect)
                return nil
            }
        }
        if let node = map["changes"] {
            guard let changes = decoder.int(node, "how many times the controller told its delegate of a change", in: 0...Limits.objects)
            else { return nil }
            expectation.changes = changes
        }
        guard expectation.objects != nil || expectation.sections != nil || expectation.changes != nil else {
            decoder.error("the results step checks nothing; give expect: (its objects, like [n2, n1]) or changes: (its "
                + "delegate calls), or both.", at: argument)
            return nil
        }
        guard let timing else { return nil }
        return .results(controller: name, expectation: expectation, timing: timing)
    }

    /// The ids of a controller's list: objects inserted by earlier steps, each once.
    private func controllerObjects(_ items: [YAMLNode]) -> [String]? {
        var ids: [String] = []
        for item in items {
            guard let (id, _) = objectReference(item) else { return nil }
            if ids.contains(id) {
                decoder.error("'\(id)' is listed twice; a controller holds an object once.", at: item)
                return nil
            }
            ids.append(id)
        }
        return ids
    }

    /// `expect: { fault: true, deleted: false, registered: true }`: at least one flag.
    private func decodeStateExpectation(_ node: YAMLNode) -> ObjectStateExpectation? {
        guard let map = MappingReader(node, "the expected state, like { fault: true }", decoder) else { return nil }
        map.rejectUnknownKeys(ObjectStateExpectation.keys, in: "the expected state")
        guard !map.pairs.isEmpty else {
            decoder.error("the expected state is empty; give fault:, deleted: or registered:, like { fault: true }.", at: node)
            return nil
        }
        let fault = map["fault"].flatMap { decoder.bool($0, "fault") }
        let deleted = map["deleted"].flatMap { decoder.bool($0, "deleted") }
        let registered = map["registered"].flatMap { decoder.bool($0, "registered") }
        if (map["fault"] != nil && fault == nil) || (map["deleted"] != nil && deleted == nil)
            || (map["registered"] != nil && registered == nil) { return nil }
        return ObjectStateExpectation(fault: fault, deleted: deleted, registered: registered)
    }

    /// `within: 200ms`, or `now: true`; within 1s when neither is given.
    private func decodeTiming(_ map: MappingReader) -> CheckTiming? {
        let within = map["within"].flatMap { decoder.duration($0, "within") }
        let now = map["now"].flatMap { decoder.bool($0, "now") }
        if map["within"] != nil, now == true, let node = map.keyNode("now") {
            decoder.error("a check either waits (within:) or reads once (now: true), not both; remove one.", at: node)
            return nil
        }
        if map["within"] != nil, within == nil { return nil }
        if map["now"] != nil, now == nil { return nil }
        if now == true { return .now }
        return within.map(CheckTiming.within) ?? CheckTiming.defaultWithin
    }

    /// Parses a `where:` string, reporting errors at the column inside the string they are about.
    func decodePredicate(_ node: YAMLNode, entity: EntityDescription?) -> FetchPredicate? {
        guard let text = decoder.string(node, "a predicate like \"rank > 2\"") else { return nil }
        do {
            // Key paths are checked against the destinations, in the model the step's process opens.
            var schema: (any PredicateSchema)? = entity
            if let entity, let model { schema = ModelEntitySchema(model: model, entity: entity) }
            return try FetchPredicate(parsing: text, entity: schema)
        } catch {
            let singleLine = !text.contains("\n")
            let column = singleLine ? node.column + (node.isQuoted ? 1 : 0) + error.offset : node.column
            let shown = text.count > 80 ? String(text.prefix(77)) + "..." : text
            decoder.error("the predicate '\(shown)' does not parse: \(error.message)", yamlLine: node.line, column: column)
            return nil
        }
    }

    /// `"-rank"`, `"rank, -title"` or `[-rank, title]`: attributes, `-` for descending.
    func decodeSort(_ node: YAMLNode, entity: EntityDescription?) -> [SortKey] {
        var parts: [(String, YAMLNode)] = []
        if let text = node.scalar, !node.isNull {
            parts = text.split(separator: ",").map { (String($0).trimmingWhitespace(), node) }
        } else if let items = decoder.scalarList(node, "sort keys") {
            parts = items
        }
        var keys: [SortKey] = []
        for (part, partNode) in parts {
            var name = part
            var ascending = true
            if let sign = name.first, sign == "-" || sign == "+" {
                ascending = sign == "+"
                name = String(name.dropFirst())
            }
            if let entity, entity.attribute(named: name) == nil {
                decoder.error("\(entity.name) has no attribute '\(name)' to sort by"
                    + Suggestion.hint(for: name, in: entity.attributes.map(\.name)), at: partNode)
                continue
            }
            keys.append(SortKey(attribute: name, ascending: ascending))
        }
        return keys
    }
}
