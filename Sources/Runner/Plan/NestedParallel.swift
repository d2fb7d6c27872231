import ScenarioModel

/// A `parallel` nested in another's branch runs as branches of the outer one, where that is the same
/// schedule: one that is itself a child of the outer `parallel`, and one that ends a branch after nothing
/// but sleeps (`[ {sleep: 20ms}, {parallel: [A, B]} ]` is `[sleep 20ms, A]` and `[sleep 20ms, B]`).
/// Run as a step of its own, it held every other branch of the outer one until it ended, in both modes:
/// a sibling's save, an autosave due meanwhile, waited for it. One followed by steps of its branch, which
/// wait for all of its children, or one after a step that is not a sleep, still runs as a step of its own.
enum NestedParallel {
    /// `step` with the `parallel`s nested in it flattened where they can be.
    static func flatten(_ step: ScenarioStep) -> ScenarioStep {
        var flat = step
        switch step.step {
        case .parallel(let children):
            flat.step = .parallel(children.flatMap(branches))
        case .sequence(let elements):
            flat.step = .sequence(elements.map(flatten))
        default:
            break
        }
        return flat
    }

    /// The branches of the outer `parallel` that `child`, one of its children, runs as.
    private static func branches(of child: ScenarioStep) -> [ScenarioStep] {
        let child = flatten(child)
        switch child.step {
        case .parallel(let inner):
            return inner
        case .sequence(let elements):
            guard case .parallel(let inner)? = elements.last?.step else { return [child] }
            let prefix = elements.dropLast()
            guard prefix.allSatisfy(\.isSleep) else { return [child] }
            // A workload is run as a branch of its own only when it is one: behind a sleep it stays nested.
            guard prefix.isEmpty || !inner.contains(where: \.isWorkload) else { return [child] }
            if prefix.isEmpty { return inner }
            return inner.map { branch in
                let steps: [ScenarioStep] = if case .sequence(let more) = branch.step { more } else { [branch] }
                return ScenarioStep(location: branch.location, process: nil, step: .sequence(Array(prefix) + steps))
            }
        default:
            return [child]
        }
    }
}

private extension ScenarioStep {
    var isSleep: Bool {
        if case .sleep = step { true } else { false }
    }

    var isWorkload: Bool {
        if case .workload = step { true } else { false }
    }
}
