import Basics

/// Decoding control steps: `sleep`, `parallel`, `clock`, `workload`, `fault`.
extension ScenarioDecoder {
    func decodeControlStep(_ keyword: String, _ node: YAMLNode, at location: SourceLocation) -> ScenarioStep? {
        let step: Step?
        switch keyword {
        case "sleep": step = decoder.duration(node, "sleep").map(Step.sleep)
        case "parallel": step = decodeParallel(node)
        case "clock": step = decodeClock(node)
        case "workload": step = decodeWorkload(node)
        case "restore-store": step = decodeRestore(node)
        case "app-update": step = decoder.modelVersionName(node, key: "app-update", versions: modelVersions.map(\.name)).map(Step.appUpdate)
        default: step = decodeFault(node)
        }
        return step.map { ScenarioStep(location: location, process: nil, step: $0) }
    }

    /// `restore-store: backup`: the name of a copy an earlier `copy-store` took.
    private func decodeRestore(_ node: YAMLNode) -> Step? {
        actions.copyReference(node).map { .restoreStore(from: $0) }
    }

    /// Steps that start together: each is checked against what came before the `parallel`, and what they
    /// insert or copy is known only after it. A child that is a list is a sequence: its steps run in order,
    /// each knowing what the ones before it in the list inserted.
    private func decodeParallel(_ node: YAMLNode) -> Step? {
        guard let items = node.items else {
            decoder.error("expected parallel steps as a list, like parallel: [ { app: save }, { share: save } ].",
                          at: node)
            return nil
        }
        if items.isEmpty {
            decoder.error("parallel needs at least one step; add some, like [ { app: save }, { share: save } ].", at: node)
        }
        let objectsBefore = objects, copiesBefore = copies
        var objectsAfter = objects, copiesAfter = copies
        var steps: [ScenarioStep] = []
        for item in items {
            objects = objectsBefore
            copies = copiesBefore
            if let sequence = item.items {
                if sequence.isEmpty {
                    decoder.error("a sequence inside parallel needs at least one step, like [ { app: insert... }, { app: save } ].", at: item)
                }
                let inner = sequence.flatMap { sub in
                    guard sub.items == nil else {
                        decoder.error("a sequence inside parallel holds steps, not another list; write its steps one after another, "
                            + "or nest a parallel: step for steps that start together.", at: sub)
                        return [ScenarioStep]()
                    }
                    return decodeStep(sub)
                }
                steps.append(ScenarioStep(location: decoder.location(of: item), process: nil, step: .sequence(inner)))
            } else {
                steps += decodeStep(item)
            }
            objectsAfter.merge(objects) { earlier, _ in earlier }
            copiesAfter.merge(copies) { earlier, _ in earlier }
        }
        objects = objectsAfter
        copies = copiesAfter
        checkSequenceProcesses(steps)
        return .parallel(steps)
    }

    /// A process with steps in a sequence has them in no other child of the same `parallel`: which branch
    /// goes first is the schedule's choice, so its lifecycle and its steps' order would be too (a launch in
    /// each branch fails in one order only). An App Intent built into the app (`runs-in: app`) involves the
    /// app too: the system resumes or launches it for the intent's step.
    private func checkSequenceProcesses(_ children: [ScenarioStep]) {
        guard children.contains(where: { if case .sequence = $0.step { true } else { false } }) else { return }
        let host = processes.first { $0.settings.role == .host }?.name
        let appIntents = Set(processes.filter { $0.settings.role == .intent && $0.settings.runsIn == .app }.map(\.name))
        var seen: [String: Bool] = [:]  // process -> whether a sequence named it
        for child in children {
            let isSequence = if case .sequence = child.step { true } else { false }
            var involved = child.processesInvolved
            if let host, !involved.isDisjoint(with: appIntents) { involved.insert(host) }
            for process in involved.sorted() {
                if let earlier = seen[process], earlier || isSequence {
                    decoder.error("'\(process)' has steps in two children of this parallel, one of them a sequence: which goes "
                        + "first is the schedule's choice; put \(process)'s steps in one list.", line: child.location.line,
                        column: child.location.column)
                    return
                }
                seen[process] = isSequence
            }
        }
    }

    private func decodeClock(_ node: YAMLNode) -> Step? {
        guard let map = MappingReader(node, "the clock step, like clock: { advance: 8d }", decoder) else { return nil }
        map.rejectUnknownKeys(["advance"], in: "the clock step")
        return map.required("advance", in: "the clock step", example: "clock: { advance: 8d }")
            .flatMap { decoder.duration($0, "advance", limit: Limits.simulatedTime) }
            .map { Step.advanceClock(by: $0) }
    }

    private func decodeWorkload(_ node: YAMLNode) -> Step? {
        let what = "the workload"
        guard let map = MappingReader(node, what, decoder) else { return nil }
        map.rejectUnknownKeys(["processes", "entity", "mix", "rate", "duration", "keys"], in: what)
        actions.sawWorkload = true
        let processesNode = map.required("processes", in: what, example: "processes: [app, share]")
        let processes = processesNode
            .flatMap { decoder.scalarList($0, "the workload's processes", allowingSingle: true) }?
            .compactMap { processReference($0.1, "a process name") }
        if let processesNode, processesNode.items?.isEmpty == true {
            decoder.error("the workload names no process; list the ones that run it, like [app, share].",
                          at: processesNode)
        }
        let entity = map.required("entity", in: what, example: "entity: Note").flatMap(actions.entityReference)
        let mix = map["mix"].flatMap(decodeMix) ?? .standard
        let rate = map["rate"].flatMap(decodeRate) ?? 100
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

    private func decodeMix(_ node: YAMLNode) -> WorkloadMix? {
        guard let map = MappingReader(node, "the workload's mix, like { insert: 1, update: 3, delete: 1, read: 5 }",
                                      decoder) else { return nil }
        map.rejectUnknownKeys(["insert", "update", "delete", "read"], in: "the mix")
        func weight(_ key: String) -> Int { map[key].flatMap { decoder.int($0, "the \(key) weight", in: 0...Limits.mixWeight) } ?? 0 }
        let mix = WorkloadMix(insert: weight("insert"), update: weight("update"), delete: weight("delete"), read: weight("read"))
        if mix.total == 0 {
            decoder.error("the mix gives every operation weight 0; give at least one a positive weight.", at: node)
            return nil
        }
        return mix
    }

    /// `500/s`, `20/100ms`, or a plain number of operations per second.
    private func decodeRate(_ node: YAMLNode) -> Double? {
        if let text = node.scalar, !node.isNull {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            if let count = Double(parts[0]), count > 0, count.isFinite {
                var rate: Double?
                if parts.count == 1 { rate = count }
                if parts.count == 2 {
                    let period = parts[1].first?.isNumber == true ? parts[1] : "1" + parts[1]
                    if let duration = try? Duration(parsing: period), duration > .zero {
                        rate = count / duration.seconds
                    }
                }
                if let rate {
                    guard rate <= Limits.rate else {
                        decoder.error("the rate \(text) is more than \(Int(Limits.rate)) operations a second, the most "
                            + "a workload runs; lower it.", at: node)
                        return nil
                    }
                    return rate
                }
            }
        }
        decoder.error("expected a rate like 500/s or 20/100ms, but found \(node.shortDescription).", at: node)
        return nil
    }

    private func decodeFault(_ node: YAMLNode) -> Step? {
        guard let map = MappingReader(node, "the fault", decoder) else { return nil }
        let kinds = ["drop-notifications": "for", "delay-notifications": "by", "crash": "during", "hold-notifications": ""]
        let present = map.keys.filter { kinds[$0] != nil }
        guard let kind = present.first else {
            map.rejectUnknownKeys(Array(kinds.keys).sorted() + kinds.values.filter { !$0.isEmpty }, in: "the fault")
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
            map.rejectUnknownKeys([kind], in: "the \(kind) fault")
            return processReference(map[kind]!, "a process name").map { .fault(.holdNotifications(process: $0)) }
        }
        map.rejectUnknownKeys([kind, argumentKey], in: "the \(kind) fault")
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
