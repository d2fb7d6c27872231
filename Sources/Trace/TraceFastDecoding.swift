import Basics

/// Reading the heaviest trace events without the generic `Codable` machinery: a commit (`saveCommitted`,
/// thousands of rows for a batch operation) and a store's or a view's contents (`finalStore`,
/// `finalView`); these events are most of a large trace's bytes (`JSONDecoder` read about 4 MB a second
/// of them). Every other event, and any line this reader does not recognise exactly (an unexpected type,
/// a missing key), is left to `WireDecoder` through `Codable`, so the two always agree on what they read.
enum TraceFastDecoding {
    /// The event on `line`, or nil when `Codable` should read it.
    static func event(_ line: UnsafeBufferPointer<UInt8>) -> TraceEvent? {
        // Only the kinds read here are worth parsing twice when they turn out not to be.
        guard Self.isHeavy(line) else { return nil }
        var reader = JSONReader(line)
        guard let value = reader.value(), reader.atEnd else { return nil }
        return event(value)
    }

    /// Whether the line ends as an event of a kind read here does (`…,"type":"saveCommitted"}`: the
    /// recorder writes its keys sorted, `type` last); other lines are not worth parsing twice.
    private static func isHeavy(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        markers.contains { marker in
            line.count >= marker.count && line[(line.count - marker.count)...].elementsEqual(marker)
        }
    }

    private static let markers: [[UInt8]] = ["saveCommitted", "finalStore", "finalView"].map { Array("\"type\":\"\($0)\"}".utf8) }

    private static func event(_ value: JSONValue) -> TraceEvent? {
        guard case .object(let fields) = value, case .string(let type)? = fields["type"],
              let t = fields["t"]?.unsigned, case .string(let process)? = fields["process"], let data = fields["data"]
        else { return nil }
        let kind: TraceEventKind
        switch type {
        case "saveCommitted": guard let commit = saveCommit(data) else { return nil }; kind = .saveCommitted(commit)
        case "finalStore": guard let snapshot = snapshot(data) else { return nil }; kind = .finalStore(snapshot)
        case "finalView": guard let snapshot = snapshot(data) else { return nil }; kind = .finalView(snapshot)
        default: return nil
        }
        var start: UInt64?
        if let node = fields["start"] { guard let value = node.unsigned else { return nil }; start = value }
        var step: Int?
        if let node = fields["step"] { guard let value = node.integer.flatMap({ Int(exactly: $0) }) else { return nil }; step = value }
        return TraceEvent(t: t, start: start, process: process, step: step, kind: kind)
    }

    private static func saveCommit(_ value: JSONValue) -> SaveCommit? {
        guard case .object(let fields) = value, case .string(let store)? = fields["store"],
              case .string(let sourceText)? = fields["source"], let source = CommitSource(rawValue: sourceText),
              case .array(let objectNodes)? = fields["objects"], case .bool(let conflictResolved)? = fields["conflictResolved"]
        else { return nil }
        var token: Int64?
        if let node = fields["token"] { guard let value = node.integer else { return nil }; token = value }
        var conflicted: [String]?
        if let node = fields["conflicted"] { guard let value = node.strings else { return nil }; conflicted = value }
        var objects: [CommittedObject] = []
        objects.reserveCapacity(objectNodes.count)
        for node in objectNodes {
            guard case .object(let object) = node, case .string(let id)? = object["id"], case .string(let entity)? = object["entity"],
                  case .string(let operationText)? = object["operation"], let operation = ChangeOperation(rawValue: operationText),
                  let version = object["version"]?.integer, let values = object["values"].flatMap(values),
                  let changed = object["changed"]?.strings else { return nil }
            var baseVersion: Int64?
            if let node = object["baseVersion"] { guard let value = node.integer else { return nil }; baseVersion = value }
            var pk: Int64?
            if let node = object["pk"] { guard let value = node.integer else { return nil }; pk = value }
            objects.append(CommittedObject(id: id, entity: entity, operation: operation, version: version, baseVersion: baseVersion,
                                           values: values, changed: changed, pk: pk))
        }
        return SaveCommit(store: store, source: source, token: token, objects: objects, conflictResolved: conflictResolved,
                          conflicted: conflicted)
    }

    private static func snapshot(_ value: JSONValue) -> StateSnapshot? {
        guard case .object(let fields) = value, case .string(let store)? = fields["store"],
              case .array(let objectNodes)? = fields["objects"], let absent = fields["absent"]?.strings else { return nil }
        var objects: [ObjectState] = []
        objects.reserveCapacity(objectNodes.count)
        for node in objectNodes {
            guard case .object(let object) = node, case .string(let id)? = object["id"], case .string(let entity)? = object["entity"],
                  let values = object["values"].flatMap(values) else { return nil }
            var version: Int64?
            if let node = object["version"] { guard let value = node.integer else { return nil }; version = value }
            var pk: Int64?
            if let node = object["pk"] { guard let value = node.integer else { return nil }; pk = value }
            objects.append(ObjectState(id: id, entity: entity, version: version, values: values, pk: pk))
        }
        var fetchedAll: [String]?
        if let node = fields["fetchedAll"] { guard let entities = node.strings else { return nil }; fetchedAll = entities }
        return StateSnapshot(store: store, objects: objects, absent: absent, fetchedAll: fetchedAll)
    }

    /// Values as `TraceValue` decodes them: null, a string, a boolean, an integer, else a number.
    private static func values(_ value: JSONValue) -> TraceValues? {
        guard case .object(let fields) = value else { return nil }
        var result: TraceValues = [:]
        result.reserveCapacity(fields.count)
        for (key, node) in fields {
            switch node {
            case .null: result[key] = .null
            case .string(let text): result[key] = .string(text)
            case .bool(let flag): result[key] = .bool(flag)
            case .integer(let number): result[key] = .int(number)
            case .number(let number): result[key] = .double(number)
            case .object, .array, .largeInteger: return nil
            }
        }
        return result
    }
}
