import Basics
import ScenarioModel

extension RunPlan {
    /// Where the run's waits on the real clock first add up to more than `Limits.realTime`, counting the
    /// reloads the system runs on its own (a timeline's policy, a widget's button, a control's tap), which
    /// validation cannot see in the steps written, with their `on-reload:` work; nil when they never do.
    /// `ScenarioPaths` refuses such a file as validation does, and the runner refuses such a plan.
    /// The step named is the one written in the file that the waits pass the limit at, or after which the
    /// reload that passes it runs (a reload itself is at the request the system runs it for).
    public var overlongWait: (step: ScenarioStep, total: Duration)? {
        var total: Int64 = 0
        var written: ScenarioStep?
        for planned in steps {
            switch planned.step.step {
            case .reload, .autosave: break
            default: written = planned.step
            }
            total = Step.totalWait([total, Self.realClockWait(planned)])
            if total > Limits.realTime.microseconds { return (written ?? planned.step, Duration(microseconds: total)) }
        }
        return nil
    }

    /// What `overlongWait` says, as a sentence.
    public func overlongWaitMessage(_ total: Duration) -> String {
        "the steps up to here, with the reloads the system runs on its own and their on-reload work, wait up to "
            + "\(total) on the real clock\(run.variant == ScenarioRun.defaultVariantName ? "" : " in variant \(run.variant)"), more than the "
            + "\(Limits.realTime) a run may; shorten the waits of the on-reload work, or run fewer reloads."
    }

    /// The longest `planned` can wait on the real clock, in microseconds (saturating): a `parallel` its
    /// longest child, a push or a reload its work.
    private static func realClockWait(_ planned: PlannedStep) -> Int64 {
        switch planned.step.step {
        case .parallel: planned.children.map(realClockWait).max() ?? 0
        case .sequence, .push, .reload: Step.totalWait(planned.children.map(realClockWait))
        default: planned.step.step.ownRealClockWait
        }
    }
}
