import Basics
import ScenarioModel

/// The steps of a planned `parallel` in the order of the moments they act, for the system's schedules
/// (`AutosaveSchedule`, `ReloadSchedule`) to place what comes due while it runs among its children.
///
/// Each branch's `sleep`s are counted from the step's start; a clock advance takes no time here (it moves
/// every process's clock at its moment, which the schedules add up), and the step lasts as long as its
/// longest branch. The same file gives the same moments on any machine.
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

    /// Puts each placement into the `parallel` `planned`, planning its steps with `plan`.
    func place(_ placements: [Placement], in planned: inout RunPlan.PlannedStep, plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        guard !placements.isEmpty else { return }
        // Beside a step: the latest path first, so that an insertion moves no path still to come.
        let beside = placements.compactMap { placement -> (path: [Int], after: Bool, step: ScenarioStep)? in
            switch placement {
            case .before(let path, let step): (path, false, step)
            case .after(let path, let step): (path, true, step)
            case .branch: nil
            }
        }.sorted { first, second in
            first.path == second.path ? first.after && !second.after : second.path.lexicographicallyPrecedes(first.path)
        }
        for (path, after, step) in beside {
            Self.insert(plan(step), beside: path, after: after, in: &planned, plan: plan)
        }
        for case .branch(let moment, let step) in placements {
            let (wait, overflow) = moment.subtractingReportingOverflow(start)
            if !overflow && wait > 0 {
                let sleep = ScenarioStep(location: step.location, process: nil, step: .sleep(.microseconds(wait)))
                planned.children.append(plan(ScenarioStep(location: step.location, process: nil, step: .sequence([sleep, step]))))
            } else {
                planned.children.append(plan(step))
            }
        }
        planned.step.step = .parallel(planned.children.map(\.step))
    }

    /// Puts `new` just before or after the step at `path`: into its sequence, or with it into a new one
    /// where it is a branch of its own.
    private static func insert(_ new: RunPlan.PlannedStep, beside path: [Int], after: Bool, in node: inout RunPlan.PlannedStep,
                               plan: (ScenarioStep) -> RunPlan.PlannedStep) {
        guard let offset = path.first else { return }
        if path.count > 1 {
            insert(new, beside: Array(path.dropFirst()), after: after, in: &node.children[offset], plan: plan)
        } else if case .sequence = node.step.step {
            node.children.insert(new, at: after ? offset + 1 : offset)
        } else {
            let alone = node.children[offset]
            var sequence = plan(ScenarioStep(location: alone.step.location, process: nil, step: .sequence([])))
            sequence.children = after ? [alone, new] : [new, alone]
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
