import Basics

/// Decoding the control steps that name processes and entities: `workload` and `fault`.
extension ActionDecoder {
    /// `workload: { processes: [...], entity:, mix:, rate:, duration:, keys: }`.
    func decodeWorkload(_ node: YAMLNode) -> Step? {
        let what = "the workload"
        guard let map = MappingReader(node, what, decoder) else { return nil }
        map.rejectUnknownKeys(["processes", "entity", "mix", "rate", "duration", "keys"], in: what, controlWord: "workload")
        sawWorkload = true
        let processesNode = map.required("processes", in: what, example: "processes: [app, share]")
        let processes = processesNode
            .flatMap { decoder.scalarList($0, "the workload's processes", allowingSingle: true) }?
            .compactMap { processReference($0.1, "a process name") }
        if let processesNode, processesNode.items?.isEmpty == true {
            decoder.error("the workload names no process; list the ones that run it, like [app, share].",
                          at: processesNode)
        }
        let entity = map.required("entity", in: what, example: "entity: Note").flatMap(entityReference)
        let mix = map["mix"].flatMap(decoder.workloadMix) ?? .standard
        let rate = map["rate"].flatMap(decoder.workloadRate) ?? 100
        let duration = map.required("duration", in: what, example: "duration: 2s")
            .flatMap { decoder.positiveDuration($0, "the workload's duration") }
        let keys = map["keys"].flatMap { decoder.int($0, "keys", in: 1...Limits.objects) } ?? 100
        for name in processes ?? [] {
            guard let role = self.processes.first(where: { $0.name == name })?.role, role.traits.launch != .steps else { continue }
            decoder.error("a workload drives running processes, and '\(name)' is \(role.traits.aName), which the system starts "
                + "and ends; give the workload the host or an extension you launch.", at: processesNode ?? node)
            return nil
        }
        if let entity, entity.model?.isAbstract == true, let entityNode = map["entity"] {
            decoder.error("a workload inserts objects, and \(entity.name) is an abstract entity; run it on one of its sub-entities.",
                          at: entityNode)
            return nil
        }
        if let entity, let unique = entity.model?.allUniquenessConstraints.first, let entityNode = map["entity"] {
            decoder.error("a workload inserts objects under ids of its own, and \(entity.name).\(unique.joined(separator: ", ")) is unique: the "
                + "checkers could not follow an upsert between two of its ids; run the workload on an entity without "
                + "uniqueness constraints.", at: entityNode)
            return nil
        }
        guard let processes, !processes.isEmpty, let entity, let duration else { return nil }
        let operations = rate * duration.seconds
        guard operations <= Double(Limits.workloadOperations) else {
            decoder.error("the workload would run \(Int(operations.rounded())) operations (rate × duration), more than "
                + "\(Limits.workloadOperations); lower its rate or its duration.", at: node)
            return nil
        }
        hasWorkload = true
        return .workload(Workload(processes: processes, entity: entity.name, mix: mix, rate: rate,
                                  duration: duration, keys: keys))
    }

    /// A `fault:` step: dropped, delayed or held notifications, or a crash at a point.
    func decodeFault(_ node: YAMLNode) -> Step? {
        guard let map = MappingReader(node, "the fault", decoder) else { return nil }
        let kinds = ["drop-notifications": "for", "delay-notifications": "by", "crash": "during", "hold-notifications": ""]
        let present = map.keys.filter { kinds[$0] != nil }
        guard let kind = present.first else {
            map.rejectUnknownKeys(Array(kinds.keys).sorted() + kinds.values.filter { !$0.isEmpty }, in: "the fault", controlWord: "fault")
            if map.keys.allSatisfy({ kinds.values.contains($0) }) {
                decoder.error("the fault needs one of drop-notifications, delay-notifications, hold-notifications or crash; "
                    + "for example { drop-notifications: app, for: 1s }.", at: node)
            }
            return nil
        }
        if present.count > 1, let extra = map.keyNode(present[1]) {
            decoder.error("a fault does one thing, but this one has '\(present[0])' and '\(present[1])'; "
                + "split it into two fault steps.", at: extra)
        }
        let argumentKey = kinds[kind]!
        if argumentKey.isEmpty {
            map.rejectUnknownKeys([kind], in: "the \(kind) fault", controlWord: "fault")
            return processReference(map[kind]!, "a process name").map { .fault(.holdNotifications(process: $0)) }
        }
        map.rejectUnknownKeys([kind, argumentKey], in: "the \(kind) fault", controlWord: "fault")
        let process = processReference(map[kind]!, "a process name")
        let example = ["for": "{ drop-notifications: app, for: 1s }", "by": "{ delay-notifications: app, by: 20ms }",
                       "during": "{ crash: share, during: save }"][argumentKey]!
        guard let argument = map.required(argumentKey, in: "the \(kind) fault", example: example) else { return nil }
        switch kind {
        case "drop-notifications":
            guard let duration = decoder.duration(argument, "for"), let process else { return nil }
            return .fault(.dropNotifications(process: process, duration: duration))
        case "delay-notifications":
            guard let delay = decoder.duration(argument, "by"), let process else { return nil }
            return .fault(.delayNotifications(process: process, delay: delay))
        default:
            guard let point = decoder.keyword(argument, CrashPoint.self, "crash point"), let process else { return nil }
            return .fault(.crash(process: process, during: point))
        }
    }
}
