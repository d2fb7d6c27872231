import Basics

/// Decoding a push's payload (`push: { id: m2, text: Hello }`) and the `on-push:` work it fills in.
///
/// A process whose pushes carry payloads has its `on-push:` decoded once per distinct payload, with each
/// `$name` scalar replaced by the payload's field of that name, as its text was written there; `$$` writes
/// a literal `$`. A process none of whose pushes carries a payload keeps its work as written (a `$` in its
/// values is plain text, as files meant before payloads existed).
extension ScenarioDecoder {
    /// Notes a push as it is decoded, in step order: the objects its work inserts with this payload may be
    /// named by the steps after it.
    func notePush(_ payload: PushPayload?, process: String, at node: YAMLNode) {
        pushes.append((process, payload, node))
        guard payload != nil, let work = pendingWork.first(where: { $0.process == process && $0.key == "on-push" }) else { return }
        registerWorkInserts(PayloadTemplate.filling(work.node, with: PayloadTemplate.fields(of: node)))
    }

    /// The work of `process` for each payload its pushes carry, or nil when none carries one (its work is
    /// then decoded as written). Each push gives every field the work takes, and the work takes every field
    /// a push gives.
    func decodePayloadWork(_ node: YAMLNode, process: String, key: String) -> [PushPayload: [ScenarioStep]]? {
        let own = pushes.filter { $0.process == process }
        guard key == "on-push", own.contains(where: { $0.payload != nil }) || unreadPayloads.contains(process) else { return nil }
        guard !unreadPayloads.contains(process) else { return [:] }
        guard !refusePayloadVariants(node, process: process) else { return [:] }
        let taken = PayloadTemplate.placeholders(in: node)
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
            works[payload] = decodeWorkItems(PayloadTemplate.filling(node, with: PayloadTemplate.fields(of: push.node)), process: process, key: key)
        }
        return works
    }

    /// `only-in:` on a step of the work names variants, which the file decides, not a push: a `$name` there is
    /// refused. Returns whether one was.
    func refusePayloadVariants(_ node: YAMLNode, process: String) -> Bool {
        var refused = false
        for item in node.items ?? [] {
            guard let onlyIn = item.pairs?.first(where: { $0.key.scalar == "only-in" })?.value else { continue }
            for (name, at) in PayloadTemplate.placeholders(in: onlyIn) {
                decoder.error("only-in names the variants a step of the on-push: of '\(process)' runs in, which the file decides; "
                    + "it cannot take $\(name) from a push's payload.", at: at)
                refused = true
            }
        }
        return refused
    }
}
