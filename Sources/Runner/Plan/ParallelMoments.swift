import Basics
import ScenarioModel

/// The steps of a planned `parallel` in the order of the moments they act, for the system's schedules
/// (`AutosaveSchedule`, `ReloadSchedule`) to place what comes due while it runs among its children.
///
/// Each branch's `sleep`s (and `workload`s, over their duration) are counted from the step's start; a clock
/// advance takes no time here (it moves every process's clock at its moment, which the schedules add up),
/// and the step lasts as long as its longest branch. The same file gives the same moments on any machine.
struct ParallelMoments {
    /// A step of the `parallel` that is not a `sleep`, sequence or `parallel`: where it is among the
    /// children (indices from the root), and the moment it acts, in microseconds of simulated time.
    struct Moment {
        var time: Int64
        var path: [Int]
        /// Its place in the file's order, which orders the steps of one moment.
        var order: Int
    }

    /// Where a system step goes: a new branch at a moment (a `sleep` to it, then the step), or just
    /// before or after a step of a branch.
    enum Placement {
        case branch(at: Int64, ScenarioStep)
        case before([Int], ScenarioStep)
        case after([Int], ScenarioStep)
    }

    /// The steps, ordered by moment and then as written.
    let moments: [Moment]
    /// When the `parallel` ends: its longest branch's sleeps after `start`.
    let end: Int64
    let start: Int64

    init(of planned: RunPlan.PlannedStep, at start: Int64) {
        var list: [Moment] = []
        end = Self.collect(planned, path: [], at: start, into: &list)
        moments = list.sorted { ($0.time, $0.order) < ($1.time, $1.order) }
        self.start = start
    }

    /// The step at `path` in `planned`.
    static func node(at path: [Int], in planned: RunPlan.PlannedStep) -> RunPlan.PlannedStep {
        path.reduce(planned) { node, offset in node.children[offset] }
    }

    private static func collect(_ planned: RunPlan.PlannedStep, path: [Int], at start: Int64, into list: inout [Moment]) -> Int64 {
        switch planned.step.step {
        case .sleep(let duration):
            return start.addingClamped(duration.microseconds)
        case .workload(let workload):
            // Its operations are paced over its duration (`ScenarioRunner.workloadBranch`): the branch lasts
            // that long, and no system step goes beside it.
            return start.addingClamped(workload.duration.microseconds)
        case .sequence:
            var time = start
            for (offset, child) in planned.children.enumerated() {
                time = collect(child, path: path + [offset], at: time, into: &list)
            }
            return time
        case .parallel:
            var end = start
            for (offset, child) in planned.children.enumerated() {
                end = max(end, collect(child, path: path + [offset], at: start, into: &list))
            }
            return end
        default:
            list.append(Moment(time: start, path: path, order: list.count))
            return start
        }
    }

    /// Puts each placement into the `parallel` `planned`, planning its steps with `plan` in the order they
    /// are listed (the order of their moments, so a widget's n-th reload is the n-th planned).
    func place(_ placements: [Placement], in planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        guard !placements.isEmpty else { return }
        var beside: [[Int]: (before: [RunPlan.PlannedStep], after: [RunPlan.PlannedStep])] = [:]
        var branches: [RunPlan.PlannedStep] = []
        for placement in placements {
            switch placement {
            case .before(let path, let step): beside[path, default: ([], [])].before.append(plan(step))
            case .after(let path, let step): beside[path, default: ([], [])].after.append(plan(step))
            case .branch(let moment, let step):
                let (wait, overflow) = moment.subtractingReportingOverflow(start)
                guard !overflow && wait > 0 else {
                    branches.append(plan(step))
                    continue
                }
                let sleep = ScenarioStep(location: step.location, process: nil, step: .sleep(.microseconds(wait)))
                var sequence = plan(ScenarioStep(location: step.location, process: nil, step: .sequence([])))
                sequence.children = [plan(sleep), plan(step)]
                sequence.step.step = .sequence(sequence.children.map(\.step))
                branches.append(sequence)
            }
        }
        // The latest path first, so that an insertion moves no path still to come.
        for path in beside.keys.sorted(by: { $1.lexicographicallyPrecedes($0) }) {
            guard let (before, after) = beside[path] else { continue }
            Self.insert(before: before, after: after, beside: path, in: &planned, plan: plan)
        }
        planned.children += branches
        planned.step.step = .parallel(planned.children.map(\.step))
    }

    /// Puts `before` and `after` just before and after the step at `path`: into its sequence, or with it into
    /// a new one where it is a branch of its own.
    private static func insert(before: [RunPlan.PlannedStep], after: [RunPlan.PlannedStep], beside path: [Int],
                               in node: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        guard let offset = path.first else { return }
        if path.count > 1 {
            insert(before: before, after: after, beside: Array(path.dropFirst()), in: &node.children[offset], plan: plan)
        } else if case .sequence = node.step.step {
            node.children.insert(contentsOf: after, at: offset + 1)
            node.children.insert(contentsOf: before, at: offset)
        } else {
            let alone = node.children[offset]
            var sequence = plan(ScenarioStep(location: alone.step.location, process: nil, step: .sequence([])))
            sequence.children = before + [alone] + after
            sequence.step.step = .sequence(sequence.children.map(\.step))
            node.children[offset] = sequence
        }
        switch node.step.step {
        case .sequence: node.step.step = .sequence(node.children.map(\.step))
        case .parallel: node.step.step = .parallel(node.children.map(\.step))
        default: break
        }
    }
}
