/// Refuses steps whose waits on the real clock add up past `Limits.realTime` (`check`), once the file is read.
struct TotalWaitCheck {
    /// The declared processes, with their work (a push waits for its `on-push:`, a reload for its `on-reload:`).
    let processes: [ProcessDeclaration]

    /// Refuses steps whose waits on the real clock add up, in the base run or in some variant, to more than
    /// `Limits.realTime`, at the step that passes it: each wait is bounded on its own, and a thousand
    /// `sleep: 1h` would still hold a CI job for weeks. A wait is a `sleep`, a check's `within` (what it may
    /// take when the check never holds) and a workload's `duration`; a `parallel` waits for its longest
    /// branch. A `push` waits for its work (`on-push:`, with its payload), and a `reload-timelines` for the
    /// work of each widget it asks to reload (`on-reload:`), once per request (what the system coalesces or
    /// refuses is not subtracted). Reloads the system runs on its own (a timeline's policy, a widget's button,
    /// a control's tap) are counted by the run's plan (`RunPlan.overlongWait`), which knows them. A step runs in the base
    /// run when it has no `only-in:`, and in each variant it names.
    func check(_ steps: [ScenarioStep], variants: [String], into decoder: NodeDecoder) {
        let limit = Limits.realTime.microseconds
        for run in [nil] + variants.map(Optional.some) {
            var total: Int64 = 0
            for step in steps where Self.runs(step, in: run) {
                total = total.addingReportingOverflow(wait(of: step, in: run)).partialValue
                if total > limit || total < 0 {
                    decoder.error("the steps up to here wait up to \(Duration(microseconds: total < 0 ? .max : total)) on the real clock"
                        + (run.map { " in variant \($0)" } ?? "") + " (sleeps, checks' within, workloads), more than the "
                        + "\(Limits.realTime) a run may; shorten them, or use clock: advance for simulated time.",
                        line: step.location.line, column: step.location.column)
                    return
                }
            }
        }
    }

    private static func runs(_ step: ScenarioStep, in variant: String?) -> Bool {
        guard let onlyIn = step.onlyIn else { return true }
        return variant.map(onlyIn.contains) ?? false
    }

    /// The longest `step` can wait on the real clock, in microseconds (saturating).
    private func wait(of step: ScenarioStep, in variant: String?) -> Int64 {
        let sum = Step.totalWait
        switch step.step {
        case .parallel(let branches): return branches.filter { Self.runs($0, in: variant) }.map { wait(of: $0, in: variant) }.max() ?? 0
        case .sequence(let children): return sum(children.filter { Self.runs($0, in: variant) }.map { wait(of: $0, in: variant) })
        case .push(let payload):
            guard let declared = processes.first(where: { $0.name == step.process }) else { return 0 }
            let work = payload.map { declared.payloadWork[$0] ?? [] } ?? declared.work
            return sum(work.filter { Self.runs($0, in: variant) }.map { wait(of: $0, in: variant) })
        case .reloadTimelines(let widget):
            let widgets = processes.filter { $0.role.traits.launch.reload == .timelines && (widget == nil || $0.name == widget) }
            return sum(widgets.flatMap(\.work).filter { Self.runs($0, in: variant) }.map { wait(of: $0, in: variant) })
        case .reloadControls(let control):
            let controls = processes.filter { $0.role.traits.launch.reload == .controls && (control == nil || $0.name == control) }
            return sum(controls.flatMap(\.work).filter { Self.runs($0, in: variant) }.map { wait(of: $0, in: variant) })
        default: return step.step.ownRealClockWait
        }
    }
}
