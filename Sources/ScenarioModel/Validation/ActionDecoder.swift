import Basics

/// Decodes the steps a process performs with an argument (`insert`, `fetch`, `read`, `copy-store`, ...) and
/// keeps the ledger they are checked against: the objects inserted so far and where, the unique values
/// they set, the store copies taken, and the names a later section must declare (`references`).
///
/// `ScenarioDecoder` owns one for the file's pass: it sets the model a process's actions are decoded
/// against and the declared processes, and reads the ledger back (parallel branches save and restore it,
/// model versions check its objects).
final class ActionDecoder {
    /// The error sink and typed reads, shared with the pass.
    let decoder: NodeDecoder
    /// The model of the version the process whose action is decoded opens the store with; nil when the
    /// store is missing or broken (entity checks are then skipped).
    var model: ModelDescription?
    /// The declared processes, in order.
    var processes: [ProcessDeclaration] = []
    /// Whether the `processes` section could be read (step checks of process names are skipped otherwise).
    var knowsProcesses = false
    /// Names used before they are declared (a widget a button names, a controller a check names).
    var references = CrossReferences()
    /// The objects inserted so far: id -> entity name (nil when the entity is unknown).
    var objects: [String: String?] = [:]
    /// Where each object id was first inserted.
    var objectOrigins: [String: YAMLNode] = [:]
    /// Each unique attribute value an insert set (`Entity.attribute=value`), with the id and where.
    var uniqueValues: [String: (String, YAMLNode)] = [:]
    /// The store copies taken so far.
    var copies: [String: YAMLNode] = [:]
    /// Whether a workload step came before (its ids `k1...` cannot be named).
    var sawWorkload = false
    /// Whether some step is a valid workload (whose anomaly counts depend on the machine's speed).
    var hasWorkload = false
    /// Whether the action is a step of a widget's `on-reload:` or an extension's `on-push:` (where a count
    /// may expect a list, one per reload or push), and the list the last such count gave.
    var decodingSystemWork = false
    var perReloadCounts: [Int]?

    init(decoder: NodeDecoder) {
        self.decoder = decoder
    }

    /// Records an object the file inserts (a step, a role's work, a row of `store: from:`) and where it is
    /// named; the caller decides whether an id named again is recorded again.
    func register(_ id: String, entity: String?, at node: YAMLNode) {
        objects[id] = .some(entity)
        objectOrigins[id] = node
    }

    /// Checks that a node names a declared process (silently accepted when `processes:` could not be read).
    func processReference(_ node: YAMLNode, _ what: String) -> String? {
        guard let name = decoder.string(node, what) else { return nil }
        let names = processes.map(\.name)
        guard knowsProcesses, !names.contains(name) else { return name }
        decoder.error("unknown process '\(name)'" + Suggestion.hint(
            for: name, in: names,
            otherwise: "declare it under processes:, or use one of \(Suggestion.list(names))."), at: node)
        return nil
    }

    /// Whether objects of `entity` may stand where `ancestor`'s are expected (it or a sub-entity of it).
    func isKind(_ entity: String, of ancestor: String) -> Bool {
        entity == ancestor || model?.entity(entity, isKindOf: ancestor) == true
    }
}
