import ScenarioModel

/// The steps of a run as they ran, one at a time, with nothing random left: `parallel` children in the
/// order they ran, workload operations written out, the deterministic mode's early deliveries as
/// `deliver` steps and its late ones as `hold-notifications` faults placed where the hold began. A
/// scenario with these steps and `schedule: as-written` runs the same schedule again (what `explore`
/// shrinks).
///
/// A step may be inserted before one already recorded (a hold decided when the notification was about
/// to be handled, placed before the step that posted it): each step keeps a mark that later insertions
/// do not move.
struct ExecutedSteps {
    private(set) var steps: [ScenarioStep] = []
    private var marks: [Double] = []
    private var next = 0.0
    /// The mark of the step being executed (its own, once it is recorded), nil between steps.
    private var current: Double?

    /// Records `step` after the others; it is the step being executed until `endStep()`.
    mutating func append(_ step: ScenarioStep, executing: Bool = false) {
        steps.append(step)
        marks.append(next)
        if executing { current = next }
        next += 1
    }

    /// The step being executed is over.
    mutating func endStep() {
        current = nil
    }

    /// Changes the step being executed (a `parallel` whose sleeps are written as they ran).
    mutating func rewriteCurrent(_ body: (inout ScenarioStep) -> Void) {
        guard let current, let index = marks.firstIndex(of: current) else { return }
        body(&steps[index])
    }

    /// Where a notification routed now began: the step being executed, else the next step to be recorded.
    var routingMark: Double { current ?? next }

    /// Inserts `step` before the step recorded at `mark` (at the end when none is).
    mutating func insert(_ step: ScenarioStep, before mark: Double) {
        let index = marks.firstIndex { $0 >= mark } ?? steps.count
        steps.insert(step, at: index)
        marks.insert(mark - 0.5, at: index)
    }
}
