import Basics

/// Writing the heaviest trace events without the generic `Codable` machinery, the counterpart of
/// `TraceFastDecoding`: a commit (`saveCommitted`, thousands of rows for a batch operation) and a store's
/// or a view's contents (`finalStore`, `finalView`). Through `Codable`, every value of every row became a
/// node of a tree that was then sorted and written; a batch of 24,000 rows spent most of its agent's time
/// there, and the runner as long again writing the trace file. The bytes are exactly those
/// `WireEncoder(sortsKeys: true)` writes (keys in the order of their UTF-8 bytes, absent optionals
/// omitted), which a test checks on random events; every other event goes through it.
enum TraceFastEncoding {
    /// Appends `event`'s line (no newline) when it is a kind written here; false, writing nothing, otherwise.
    static func append(_ event: TraceEvent, to out: inout [UInt8]) -> Bool {
        let type: String
        switch event.kind {
        case .saveCommitted(let commit):
            key("data", first: true, &out)
            append(commit, to: &out)
            type = "saveCommitted"
        case .finalStore(let snapshot):
            key("data", first: true, &out)
            append(snapshot, to: &out)
            type = "finalStore"
        case .finalView(let snapshot):
            key("data", first: true, &out)
            append(snapshot, to: &out)
            type = "finalView"
        default:
            return false
        }
        key("process", &out)
        JSONText.appendString(event.process, to: &out)
        if let start = event.start {
            key("start", &out)
            JSONText.appendInteger(start, to: &out)
        }
        if let step = event.step {
            key("step", &out)
            JSONText.appendInteger(step, to: &out)
        }
        key("t", &out)
        JSONText.appendInteger(event.t, to: &out)
        key("type", &out)
        JSONText.appendString(type, to: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// `{"name":` for an object's first key, `,"name":` for the others. Names here need no escaping.
    private static func key(_ name: StaticString, first: Bool = false, _ out: inout [UInt8]) {
        out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: "\":".utf8)
    }

    private static func append(_ commit: SaveCommit, to out: inout [UInt8]) {
        key("conflictResolved", first: true, &out)
        out.append(contentsOf: commit.conflictResolved ? "true".utf8 : "false".utf8)
        if let conflicted = commit.conflicted {
            key("conflicted", &out)
            append(conflicted, to: &out)
        }
        key("objects", &out)
        appendArray(commit.objects, to: &out) { append($0, to: &$1) }
        key("source", &out)
        JSONText.appendString(commit.source.rawValue, to: &out)
        key("store", &out)
        JSONText.appendString(commit.store, to: &out)
        if let token = commit.token {
            key("token", &out)
            JSONText.appendInteger(token, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func append(_ object: CommittedObject, to out: inout [UInt8]) {
        var first = true
        if let baseVersion = object.baseVersion {
            key("baseVersion", first: true, &out)
            JSONText.appendInteger(baseVersion, to: &out)
            first = false
        }
        key("changed", first: first, &out)
        append(object.changed, to: &out)
        key("entity", &out)
        JSONText.appendString(object.entity, to: &out)
        key("id", &out)
        JSONText.appendString(object.id, to: &out)
        key("operation", &out)
        JSONText.appendString(object.operation.rawValue, to: &out)
        if let pk = object.pk {
            key("pk", &out)
            JSONText.appendInteger(pk, to: &out)
        }
        key("values", &out)
        append(object.values, to: &out)
        key("version", &out)
        JSONText.appendInteger(object.version, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func append(_ snapshot: StateSnapshot, to out: inout [UInt8]) {
        key("absent", first: true, &out)
        append(snapshot.absent, to: &out)
        if let fetchedAll = snapshot.fetchedAll {
            key("fetchedAll", &out)
            append(fetchedAll, to: &out)
        }
        key("objects", &out)
        appendArray(snapshot.objects, to: &out) { object, out in
            key("entity", first: true, &out)
            JSONText.appendString(object.entity, to: &out)
            key("id", &out)
            JSONText.appendString(object.id, to: &out)
            if let pk = object.pk {
                key("pk", &out)
                JSONText.appendInteger(pk, to: &out)
            }
            key("values", &out)
            append(object.values, to: &out)
            if let version = object.version {
                key("version", &out)
                JSONText.appendInteger(version, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        key("store", &out)
        JSONText.appendString(snapshot.store, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func append(_ strings: [String], to out: inout [UInt8]) {
        appendArray(strings, to: &out) { JSONText.appendString($0, to: &$1) }
    }

    /// `[`, each item as `write` writes it, separated by commas, `]`.
    private static func appendArray<Item>(_ items: [Item], to out: inout [UInt8], _ write: (Item, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(item, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A property-to-value dictionary, its keys in the order of their UTF-8 bytes as `WireEncoder` sorts them.
    private static func append(_ values: TraceValues, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let names = values.count < 2 ? Array(values.keys)
            : values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch values[name]! {
            case .null: out.append(contentsOf: "null".utf8)
            case .string(let value): JSONText.appendString(value, to: &out)
            case .int(let value): JSONText.appendInteger(value, to: &out)
            case .double(let value): JSONText.appendNumber(value, to: &out)
            case .bool(let value): out.append(contentsOf: value ? "true".utf8 : "false".utf8)
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension TraceEvent {
    /// Appends the event's trace line (no newline): the heavy kinds through `TraceFastEncoding`, the rest
    /// through `encoder` (which must sort keys, as every trace line does).
    func appendLine(to out: inout [UInt8], encoder: WireEncoder) throws {
        if TraceFastEncoding.append(self, to: &out) { return }
        try encoder.encode(self, appendingTo: &out)
    }
}
