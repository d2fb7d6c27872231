import Basics

/// Expanding a scenario into its runs.
extension Scenario {
    /// One run per variant, in order, or one run named `default` when there are none.
    ///
    /// - Parameter seed: the CLI's `--seed`, which overrides the file's `seed:`.
    public func runs(seed: UInt64? = nil) -> [ScenarioRun] {
        if variants.isEmpty {
            return [makeRun(variant: nil, seed: seed)]
        }
        return variants.map { makeRun(variant: $0, seed: seed) }
    }

    /// The run of the variant named `name` (`default` when the scenario has no variants), or nil.
    public func run(variant name: String, seed: UInt64? = nil) -> ScenarioRun? {
        if variants.isEmpty {
            return name == ScenarioRun.defaultVariantName ? makeRun(variant: nil, seed: seed) : nil
        }
        return variant(named: name).map { makeRun(variant: $0, seed: seed) }
    }

    private func makeRun(variant: Variant?, seed: UInt64?) -> ScenarioRun {
        let root = SeedDerivation.rootSeed(cli: seed, file: self.seed)
        let processes = processes.map { declaration in
            let overrides = variant?.overrides.filter { $0.process == declaration.name }.flatMap(\.settings) ?? []
            return RunProcess(name: declaration.name, settings: declaration.settings.applying(overrides),
                              seed: SeedDerivation.processSeed(root: root, process: declaration.name),
                              work: declaration.work.filter { $0.runs(in: variant?.name ?? ScenarioRun.defaultVariantName) },
                              payloadWork: declaration.payloadWork.mapValues { work in
                                  work.filter { $0.runs(in: variant?.name ?? ScenarioRun.defaultVariantName) }
                              })
        }
        var ordinal = 0
        let variantName = variant?.name ?? ScenarioRun.defaultVariantName
        let steps = Scenario.selecting(Scenario.seedingWorkloads(steps, root: root, ordinal: &ordinal), for: variantName)
        let budget: LatencyBudget? = switch (latencyBudget, variant?.latencyBudget) {
        case let (base?, override?): base.overridden(by: override)
        case let (base, override): override ?? base
        }
        let limits: GrowthLimits? = switch (growthLimits, variant?.growthLimits) {
        case let (base?, override?): base.overridden(by: override)
        case let (base, override): override ?? base
        }
        var run = ScenarioRun(
            scenario: name, variant: variant?.name ?? ScenarioRun.defaultVariantName, file: file, rootSeed: root,
            store: store, processes: processes, steps: steps, expectation: variant?.expectation ?? expectation,
            latencyBudget: budget, staleTolerance: variant?.staleTolerance ?? staleTolerance, growthLimits: limits)
        run.schedule = schedule
        return run
    }

    /// The steps that run in `variant` (`only-in:`), depth first.
    private static func selecting(_ steps: [ScenarioStep], for variant: String) -> [ScenarioStep] {
        steps.filter { $0.runs(in: variant) }.map { step in
            var step = step
            if let children = step.step.nestedSteps { step.step = step.step.replacingNestedSteps(selecting(children, for: variant)) }
            return step
        }
    }

    /// The steps with each workload's seed set from its ordinal, depth first.
    private static func seedingWorkloads(_ steps: [ScenarioStep], root: UInt64, ordinal: inout Int) -> [ScenarioStep] {
        steps.map { step in
            var step = step
            switch step.step {
            case var .workload(workload):
                ordinal += 1
                workload.seed = SeedDerivation.workloadSeed(root: root, ordinal: ordinal)
                step.step = .workload(workload)
            case .parallel(let children), .sequence(let children):
                step.step = step.step.replacingNestedSteps(seedingWorkloads(children, root: root, ordinal: &ordinal))
            default:
                break
            }
            return step
        }
    }
}
