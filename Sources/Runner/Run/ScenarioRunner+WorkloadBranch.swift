import Basics
import ScenarioModel

/// A `workload` among the children of `parallel` runs beside its siblings, as real apps' saves do: it
/// becomes a branch of its operations, each at its moment (a `sleep` that paces it, counted from when the
/// `parallel` began) and each a step of its process, so a sibling's lock, save or check meets the
/// operations that fall in its time, in both modes.
extension ScenarioRunner {
    /// `planned`'s operations as a sequence: drawn from the workload's seed before the `parallel` starts,
    /// with the ids its own operations commit assumed committed (an operation that fails leaves the next
    /// ones to meet what it did not do, as a real workload would).
    /// `reserved`: the ids the workloads before it in the same `parallel` insert, which it leaves to them;
    /// it adds its own.
    func workloadBranch(_ planned: RunPlan.PlannedStep, _ workload: Workload, reserved: inout Set<String>) -> RunPlan.PlannedStep {
        let (entity, seeded) = workloadGenerator(workload, at: planned.index)
        var generator = seeded
        generator.reserved = reserved
        var committed = Set(committedWorkloadIDs(workload))
        let location = planned.step.location
        var steps: [RunPlan.PlannedStep] = []
        func add(_ step: Step, _ process: String?, pace: UInt64? = nil) {
            var child = RunPlan.PlannedStep(index: planned.index, step: ScenarioStep(location: location, process: process, step: step),
                                            children: [])
            child.workloadOperation = process != nil
            child.paceOffset = pace
            steps.append(child)
        }
        while let op = generator.next(committed: committed.sorted()) {
            if op.offsetNanos > 0 {
                add(.sleep(Duration(microseconds: Int64(clamping: generator.intervalNanos / 1000))), nil, pace: op.offsetNanos)
            }
            switch op.kind {
            case .insert:
                let defaults = entity?.valuesForInsert(objectID: op.id, explicit: [:]) ?? [:]
                add(.insert(entity: workload.entity, id: op.id, values: defaults.merging(op.values) { $1 }), op.process)
                add(.save, op.process)
                committed.insert(op.id)
                reserved.insert(op.id)
            case .update:
                add(.update(id: op.id, values: op.values), op.process)
                add(.save, op.process)
            case .delete:
                add(.delete(id: op.id), op.process)
                add(.save, op.process)
                committed.remove(op.id)
            case .read:
                add(.read(id: op.id, expectation: nil, timing: .now), op.process)
            }
        }
        return RunPlan.PlannedStep(index: planned.index, step: ScenarioStep(location: location, process: nil, step: .sequence(steps.map(\.step))),
                                   children: steps)
    }
}
