import Basics
import Foundation
import Yams

// Why this type spans several files: it is one pass over one file's YAML tree with one error sink, and the
// scenario language has that many sections. Each `ScenarioDecoder+<Section>.swift` decodes one section
// (processes, steps, control steps, variants, explore, push payloads), so a change to the language touches
// the file of the section it changes. What needs little or none of the pass's state is a type of its own,
// given its inputs: a model and its versions (`ModelDecoder`), the store (`StoreDecoder`), a process's
// settings (`SettingsDecoder`) and their values (`NodeDecoder+Settings`), the actions with an argument and
// the ledger of objects and copies they are checked against (`ActionDecoder`), the action words
// (`ActionWord`), the checks of a step against its process (`StepFit`), the scenario's name
// (`ScenarioName`), and the YAML text itself (`NodeDecoder+Values`, `NodeDecoder+Compose`).

/// Decodes and validates one scenario file in a single pass over its composed YAML tree, collecting
/// every error rather than stopping at the first.
///
/// Sections are read in a fixed order whatever their order in the file (store, processes, steps,
/// variants), because each later one is checked against the earlier ones.
final class ScenarioDecoder {
    /// The error sink and typed reads.
    let decoder: NodeDecoder
    /// The actions with an argument, and the ledger of objects and copies they are checked against.
    let actions: ActionDecoder
    /// The file's name without directory or extension (the default scenario name).
    let baseName: String

    /// `store.models`, oldest first; empty with `store.model`.
    var modelVersions: [ModelVersion] = []
    /// Each process's `on-reload:` or `on-push:`, decoded after the steps.
    var pendingWork: [(process: String, key: String, node: YAMLNode)] = []
    /// Every `push` step, in step order, with its payload and where it is (`decodePayloadWork`).
    var pushes: [(process: String, payload: PushPayload?, node: YAMLNode)] = []
    /// The processes a push's payload could not be read for (their `on-push:` is then not decoded).
    var unreadPayloads: Set<String> = []
    /// Whether the steps are walked through the lifecycle once the file is otherwise valid.
    var checksLifecycle = true
    /// The variant names steps give their own arguments for (a step's `variants:`), where each is written.
    var stepVariantNames: [(name: String, key: YAMLNode)] = []
    /// Reads each process's settings, and keeps its `contexts:` for a variant's to merge into.
    var settingsDecoder: SettingsDecoder
    /// Where the steps with `variants:` are: their versions' `only-in` is checked as `variants:`, once.
    var stepsWithVersions: Set<SourceLocation> = []

    // The pass's view of what `actions` owns: one copy of each, read and set through here.
    /// The model, once decoded (see `ActionDecoder.model`).
    var model: ModelDescription? { get { actions.model } set { actions.model = newValue } }
    /// The declared processes, in order.
    var processes: [ProcessDeclaration] { get { actions.processes } set { actions.processes = newValue } }
    /// Names the file uses before it declares them, checked once every section is decoded.
    var references: CrossReferences { get { actions.references } set { actions.references = newValue } }
    /// The objects inserted by the steps so far: id -> entity name (nil when the entity is unknown).
    var objects: [String: String?] { get { actions.objects } set { actions.objects = newValue } }
    /// The store copies taken by the steps so far.
    var copies: [String: YAMLNode] { get { actions.copies } set { actions.copies = newValue } }
    /// Whether the `processes` section could be read (step checks of process names are skipped otherwise).
    var knowsProcesses: Bool { get { actions.knowsProcesses } set { actions.knowsProcesses = newValue } }

    /// The words that start a control step, and so cannot name a process.
    static let controlKeywords = ["sleep", "parallel", "clock", "workload", "fault", "restore-store", "app-update"]
    /// The keys a variant uses beside process names, which cannot name a process either.
    static let variantKeys = ["expect", "latency", "stale-tolerance", "limits"]
    /// Names the harness records its own trace events under.
    static let harnessNames = ["runner", "hub"]
    /// The top-level keys.
    static let topLevelKeys = [
        "name", "summary", "source", "seed", "tags", "store", "processes", "steps", "variants", "expect",
        "latency", "stale-tolerance", "limits", "explore", "schedule",
    ]

    init(file: String) {
        self.decoder = NodeDecoder(file: file)
        self.settingsDecoder = SettingsDecoder(decoder: decoder)
        self.actions = ActionDecoder(decoder: decoder)
        let last = (file as NSString).lastPathComponent
        self.baseName = (last as NSString).deletingPathExtension
    }

    /// Decodes the text, returning the scenario or every error found.
    func decode(yaml: String) -> Result<Scenario, ScenarioErrors> {
        guard yaml.utf8.count <= Limits.fileBytes else {
            decoder.error("the file is \(yaml.utf8.count) bytes, more than the \(Limits.fileBytes) a scenario may have; "
                + "split it, or generate the load with a workload step.", line: 1, column: 1)
            return .failure(ScenarioErrors(decoder.errors))
        }
        guard let root = decoder.compose(yaml, ifEmpty: "the file is empty; a scenario needs at least summary:, store:, processes: and steps:.")
        else { return .failure(ScenarioErrors(decoder.errors)) }
        let scenario = decodeScenario(root)
        if let scenario, decoder.errors.isEmpty {
            return .success(scenario)
        }
        if decoder.errors.isEmpty {
            decoder.error("the scenario could not be decoded, and no reason was found; this is a bug in GroupSim, "
                + "please report it with this file.", line: 1, column: 1)
        }
        return .failure(ScenarioErrors(decoder.errors))
    }

    private func decodeScenario(_ root: YAMLNode) -> Scenario? {
        guard let map = MappingReader(root, "the scenario", decoder) else { return nil }
        map.rejectUnknownKeys(Self.topLevelKeys, in: "the scenario")

        let name = ScenarioName.decode(map, fileName: baseName, decoder: decoder)
        let summary = map.required("summary", in: "the scenario", example: "summary: One line that says what goes wrong")
            .flatMap { decoder.string($0, "a one-line summary") }
        let source = map["source"].flatMap { decoder.string($0, "the address where the bug was reported") }
        let seed = map["seed"].flatMap { decoder.uint64($0, "seed") }
        let tags = map["tags"].flatMap { decoder.scalarList($0, "tags") }?.map(\.0) ?? []
        let store = map.required("store", in: "the scenario", example: "store: { group: group.example.notes, name: Notes, model: ... }")
            .flatMap(decodeStore)
        if let processesNode = map.required("processes", in: "the scenario", example: "processes: { app: { role: host } }") {
            decodeProcesses(processesNode)
        }
        let steps = map.required("steps", in: "the scenario", example: "steps: [ { app: launch } ]")
            .map { decodeSteps($0) } ?? []
        let variants = map["variants"].map(decodeVariants) ?? []
        let expectation = map["expect"].flatMap(decodeExpectation)
        let latency = map["latency"].flatMap(decoder.latencyBudget)
        let tolerance = map["stale-tolerance"].flatMap { decoder.duration($0, "stale-tolerance") }
        let limits = map["limits"].flatMap(decoder.growthLimits)
        let explore = map["explore"].flatMap(decodeExplore) ?? ExploreSpace()
        let schedule = map["schedule"].flatMap { decoder.keyword($0, ScheduleSource.self, "schedule") }
        references.checkDeclarations(of: processes, knowsAll: knowsProcesses, into: decoder)
        decodePendingWork()
        references.checkUses(by: processes, into: decoder)
        // After the work: a push or a reload waits for what its process's work waits for.
        TotalWaitCheck(processes: processes).check(steps, variants: variants.map(\.name), into: decoder)
        checkOnlyIn(steps + processes.flatMap(\.allWork), variants: variants.map(\.name))
        ModelVersionCheck(processes: processes, modelVersions: modelVersions, objects: objects)
            .check(steps, variants: variants, into: decoder)
        for (name, key) in stepVariantNames where !variants.map(\.name).contains(name) {
            decoder.error("the step's variants: names an unknown variant '\(name)'" + Suggestion.hint(
                for: name, in: variants.map(\.name), otherwise: "declare it under variants:."), at: key)
        }

        guard let name, let summary, let store else { return nil }
        var scenario = Scenario(
            name: name, summary: summary, source: source, seed: seed, tags: tags, store: store,
            processes: processes, steps: steps, variants: variants, expectation: expectation ?? .pass,
            latencyBudget: latency, staleTolerance: tolerance ?? Scenario.defaultStaleTolerance, growthLimits: limits, explore: explore,
            file: decoder.file)
        scenario.schedule = schedule ?? .seeded
        // Steps the runner could not carry out, once the file is otherwise valid (a broken file's steps
        // would give errors that are only echoes of the first).
        if decoder.errors.isEmpty, checksLifecycle {
            for problem in LifecycleCheck.problems(in: scenario) {
                decoder.error(problem.message, line: problem.location.line, column: problem.location.column)
            }
        }
        return scenario
    }

    /// Every `only-in:` names declared variants.
    private func checkOnlyIn(_ steps: [ScenarioStep], variants: [String]) {
        for step in steps {
            if let children = step.step.nestedSteps { checkOnlyIn(children, variants: variants) }
            let isVersion = step.exceptIn == nil && stepsWithVersions.contains(step.location)
            for name in step.onlyIn ?? [] where !variants.contains(name) && !isVersion {
                decoder.error("only-in names an unknown variant '\(name)'" + Suggestion.hint(
                    for: name, in: variants,
                    otherwise: variants.isEmpty ? "declare it under variants:." : "declare it under variants:, or use one of \(Suggestion.list(variants))."),
                    line: step.location.line, column: step.location.column)
            }
        }
    }
}
