import Basics

/// Decoding a push's payload (`push: { id: m2, text: Hello }`) and the `on-push:` work it fills in.
///
/// A process whose pushes carry payloads has its `on-push:` decoded once per distinct payload, with each
/// `$name` scalar replaced by the payload's field of that name, as its text was written there; `$$` writes
/// a literal `$`. A process none of whose pushes carries a payload keeps its work as written (a `$` in its
/// values is plain text, as files meant before payloads existed).
extension ScenarioDecoder {
    /// `push: { id: m2, text: Hello }`: named scalars.
    func decodePayload(_ node: YAMLNode) -> PushPayload? {
        guard let pairs = node.pairs else {
            decoder.error("push takes a payload, its named values, like push: { id: m2, text: Hello }, or true for none; "
                + "found \(node.shortDescription).", at: node)
            return nil
        }
        guard !pairs.isEmpty else {
            decoder.error("push: {} gives an empty payload; write push: true for a push without one.", at: node)
            return nil
        }
        var fields: [PushPayload.Field] = []
        for pair in pairs {
            guard let name = pair.key.scalar, Self.isPayloadName(name) else {
                decoder.error("a payload's names are letters, digits, '-' and '_', starting with a letter, as $name refers "
                    + "to them; found \(pair.key.shortDescription).", at: pair.key)
                continue
            }
            guard case let .scalar(text, quoted) = pair.value.kind else {
                decoder.error("the payload's \(name) is one value (a name, a number, a string), as on-push takes it in "
                    + "place of $\(name); found \(pair.value.shortDescription).", at: pair.value)
                continue
            }
            fields.append(PushPayload.Field(name: name, text: text, quoted: quoted))
        }
        return fields.count == pairs.count ? PushPayload(fields: fields) : nil
    }

    /// Notes a push as it is decoded, in step order: the objects its work inserts with this payload may be
    /// named by the steps after it.
    func notePush(_ payload: PushPayload?, process: String, at node: YAMLNode) {
        pushes.append((process, payload, node))
        guard payload != nil, let work = pendingWork.first(where: { $0.process == process && $0.key == "on-push" }) else { return }
        registerWorkInserts(Self.filling(work.node, with: Self.fields(of: node)))
    }

    /// The payload's value nodes by name, from the push step's action (`{ push: { id: m2 } }`): the work
    /// takes each with its position, so a value the work cannot take is reported where the push gives it.
    static func fields(of action: YAMLNode) -> [String: YAMLNode] {
        let pairs = action.pairs?.first { $0.key.scalar == "push" }?.value.pairs ?? []
        return Dictionary(pairs.compactMap { pair in pair.key.scalar.map { ($0, pair.value) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `name` may name a payload's field.
    static func isPayloadName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.utf8.count <= 100 && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic
            || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The field a scalar refers to (`$text` -> `text`), nil for any other scalar (`$$5` is a literal `$5`).
    private static func placeholder(_ text: String) -> String? {
        guard text.hasPrefix("$"), !text.hasPrefix("$$") else { return nil }
        let name = String(text.dropFirst())
        return isPayloadName(name) ? name : nil
    }

    /// Every `$name` scalar among `node`'s values (never its keys), with where it is, in file order.
    static func placeholders(in node: YAMLNode) -> [(name: String, node: YAMLNode)] {
        switch node.kind {
        case let .scalar(text, _): placeholder(text).map { [($0, node)] } ?? []
        case let .sequence(items): items.flatMap(placeholders(in:))
        case let .mapping(pairs): pairs.flatMap { placeholders(in: $0.value) }
        }
    }

    /// `node` with each `$name` value replaced by the payload's value node of that name (left as it is when
    /// the payload has none, which `decodePayloadWork` reports) and `$$` by `$`.
    static func filling(_ node: YAMLNode, with fields: [String: YAMLNode]) -> YAMLNode {
        var filled = node
        switch node.kind {
        case let .scalar(text, quoted):
            if let name = placeholder(text) {
                return fields[name] ?? node
            } else if text.hasPrefix("$$") {
                filled.kind = .scalar(String(text.dropFirst()), quoted: quoted)
            }
        case let .sequence(items):
            filled.kind = .sequence(items.map { filling($0, with: fields) })
        case let .mapping(pairs):
            filled.kind = .mapping(pairs.map { YAMLNode.Pair(key: $0.key, value: filling($0.value, with: fields)) })
        }
        return filled
    }

    /// The work of `process` for each payload its pushes carry, or nil when none carries one (its work is
    /// then decoded as written). Each push gives every field the work takes, and the work takes every field
    /// a push gives.
    func decodePayloadWork(_ node: YAMLNode, process: String, key: String) -> [PushPayload: [ScenarioStep]]? {
        let own = pushes.filter { $0.process == process }
        guard key == "on-push", own.contains(where: { $0.payload != nil }) || unreadPayloads.contains(process) else { return nil }
        guard !unreadPayloads.contains(process) else { return [:] }
        guard !refusePayloadVariants(node, process: process) else { return [:] }
        let taken = Self.placeholders(in: node)
        let takenNames = Set(taken.map(\.name))
        let described = taken.first.map { "$\($0.name) at line \(decoder.location(of: $0.node).line)" }
        var works: [PushPayload: [ScenarioStep]] = [:]
        for push in own {
            guard let payload = push.payload else {
                if let described {
                    decoder.error("the on-push: of '\(process)' takes values from each push's payload (\(described)); give this "
                        + "push one, like push: { \(taken[0].name): ... }.", at: push.node)
                }
                continue
            }
            let given = push.node.pairs?.first { $0.key.scalar == "push" }?.value ?? push.node
            var lacking = Set<String>()
            for (name, at) in taken where payload[name] == nil && lacking.insert(name).inserted {
                decoder.error("this push's payload gives no \(name), which the on-push: of '\(process)' takes as $\(name) at line "
                    + "\(decoder.location(of: at).line); add \(name): to it.", at: given)
            }
            for field in payload.fields where !takenNames.contains(field.name) {
                let key = given.pairs?.first { $0.key.scalar == field.name }?.key ?? given
                decoder.error("the on-push: of '\(process)' never takes $\(field.name), so the payload's \(field.name) would do "
                    + "nothing; remove it, or write $\(field.name) where the work should take it (a $ inside a longer string "
                    + "is text).", at: key)
            }
            // A payload that lacks a value has its error: the work decoded without it would only echo it.
            guard lacking.isEmpty, works[payload] == nil else { continue }
            works[payload] = decodeWorkItems(Self.filling(node, with: Self.fields(of: push.node)), process: process, key: key)
        }
        return works
    }

    /// `only-in:` on a step of the work names variants, which the file decides, not a push: a `$name` there is
    /// refused. Returns whether one was.
    func refusePayloadVariants(_ node: YAMLNode, process: String) -> Bool {
        var refused = false
        for item in node.items ?? [] {
            guard let onlyIn = item.pairs?.first(where: { $0.key.scalar == "only-in" })?.value else { continue }
            for (name, at) in Self.placeholders(in: onlyIn) {
                decoder.error("only-in names the variants a step of the on-push: of '\(process)' runs in, which the file decides; "
                    + "it cannot take $\(name) from a push's payload.", at: at)
                refused = true
            }
        }
        return refused
    }
}
