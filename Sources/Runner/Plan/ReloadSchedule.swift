import Basics
import ScenarioModel

/// When the system runs each widget's reloads: a `reload-timelines` request is due `reload-delay`
/// after it on the simulated clock, which only `clock: advance` moves, and runs after the first step
/// at whose end the simulated time has reached it; past the widget's `reload-budget` of reloads in a
/// simulated day, a request is ignored. Decided from the steps alone, so the same file schedules the
/// same reloads on any machine.
struct ReloadSchedule {
    private struct Pending {
        var widget: String
        var due: Int64
        var position: Int
        var index: Int
        var request: ScenarioStep
    }

    private let widgets: [RunProcess]
    /// The simulated time, in microseconds since the run began.
    private var now: Int64 = 0
    private var pending: [Pending] = []
    /// Reloads accepted per widget and simulated day.
    private var accepted: [String: [Int64: Int]] = [:]
    /// Requests the budget refused: the position of the request and why.
    private(set) var refused: [(Int, String)] = []

    private static let day = Duration.days(1).microseconds

    init(run: ScenarioRun) {
        widgets = run.processes.filter { $0.settings.role == .widget }
    }

    /// The reloads to run after `step`, the top-level step at `position` in the plan and numbered
    /// `index` (requests it makes, and earlier ones it moves the clock past), each as the system's
    /// `reload` step of its widget.
    mutating func after(_ step: ScenarioStep, at position: Int, index: Int) -> [ScenarioStep] {
        visit(step, position: position, index: index)
        let due = pending.filter { $0.due <= now }
        pending.removeAll { $0.due <= now }
        return due.map { reload in
            ScenarioStep(location: reload.request.location, process: reload.widget, step: .reload(requestedAt: reload.index))
        }
    }

    /// Requests still pending when the steps ran out: a note for each, on its request.
    func unfinished() -> [(Int, String)] {
        pending.map { reload in
            (reload.position, "the system would reload \(reload.widget) at \(Self.clockText(reload.due)) on the simulated clock "
                + "(reload-delay), and the run ended first: the reload never ran.")
        }
    }

    private mutating func visit(_ step: ScenarioStep, position: Int, index: Int) {
        switch step.step {
        case .advanceClock(let duration):
            now = now.addingReportingOverflow(duration.microseconds).overflow ? .max : now + duration.microseconds
        case .parallel(let children):
            for child in children { visit(child, position: position, index: index) }
        case .reloadTimelines(let only):
            for widget in widgets where only == nil || only == widget.name {
                request(widget, by: step, position: position, index: index)
            }
        default:
            break
        }
    }

    private mutating func request(_ widget: RunProcess, by step: ScenarioStep, position: Int, index: Int) {
        // A reload already waiting covers this request too, as WidgetKit coalesces them.
        guard !pending.contains(where: { $0.widget == widget.name }) else { return }
        let day = now / Self.day
        let used = accepted[widget.name]?[day] ?? 0
        guard used < widget.settings.reloadBudget else {
            refused.append((position, "the system ignored the request to reload \(widget.name): its budget of "
                + "\(widget.settings.reloadBudget) reload\(widget.settings.reloadBudget == 1 ? "" : "s") a day (reload-budget) is used up."))
            return
        }
        accepted[widget.name, default: [:]][day] = used + 1
        let delay = widget.settings.reloadDelay.microseconds
        let due = now.addingReportingOverflow(delay).overflow ? .max : now + delay
        pending.append(Pending(widget: widget.name, due: due, position: position, index: index, request: step))
    }

    private static func clockText(_ microseconds: Int64) -> String {
        "+" + Duration(microseconds: microseconds).description
    }
}
