import Basics

/// Decoding control steps: `sleep`, `parallel`, `restore-store`, `app-update`; the others are read by
/// `NodeDecoder` (`clock`) and `ActionDecoder` (`workload`, `fault`), which name processes and entities.
extension ScenarioDecoder {
    func decodeControlStep(_ keyword: String, _ node: YAMLNode, at location: SourceLocation) -> ScenarioStep? {
        let step: Step?
        switch keyword {
        case "sleep": step = decoder.duration(node, "sleep").map(Step.sleep)
        case "parallel": step = decodeParallel(node)
        case "clock": step = decoder.clockAdvance(node)
        case "workload": step = actions.decodeWorkload(node)
        case "restore-store": step = decodeRestore(node)
        case "app-update": step = decoder.modelVersionName(node, key: "app-update", versions: modelVersions.map(\.name)).map(Step.appUpdate)
        default: step = actions.decodeFault(node)
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
        fit.checkSequenceProcesses(steps)
        return .parallel(steps)
    }
}
