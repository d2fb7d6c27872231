import Basics
import ScenarioModel
import Supervisor

/// When the system runs each widget's reloads: a `reload-timelines` request is due `reload-delay`
/// after it on the simulated clock, which `clock: advance` and `sleep` move, and runs after the first step
/// at whose end the simulated time has reached it; past the widget's `reload-budget` of reloads in a
/// simulated day, a request is ignored. As WidgetKit does ("Keeping a widget up to date"), a request
/// made while the containing app is in the foreground does not count against the budget; and an App
/// Intent run by a widget's button (`widget-button:`) has that widget reloaded as soon as it saves,
/// outside the budget. A widget whose timeline has a reload policy (`timeline-policy`) is reloaded by the
/// system that long after each reload, within its budget (past it, at the start of the next simulated day);
/// an app's request that comes first takes its place. Controls are reloaded the same way by
/// `reload-controls`, and by their action's intent (`control:`), with no budget (Apple documents none).
/// Decided from the steps alone, so the same file schedules the same reloads on any machine.
struct ReloadSchedule {
    struct Pending {
        var widget: String
        var due: Int64
        var position: Int
        var index: Int
        var request: ScenarioStep
        /// Scheduled by the timeline's reload policy rather than asked for: counted against the budget
        /// when it runs, never noted as lost when the run ends first.
        var byPolicy = false
    }

    /// The widgets and controls.
    let widgets: [RunProcess]
    /// The App Intents a widget's button or a control's tap runs, and that widget or control.
    private let buttons: [String: String]
    /// The containing app's lifecycle (its `host` processes'), as the steps move it.
    private var hosts: [String: ProcessLifecycle]
    /// The simulated time, in microseconds since the run began.
    var now: Int64 = 0
    var pending: [Pending] = []
    /// Reloads accepted per widget and simulated day.
    var accepted: [String: [Int64: Int]] = [:]
    /// Requests the budget refused: the position of the request and why.
    private(set) var refused: [(Int, String)] = []

    static let day = Duration.days(1).microseconds

    init(run: ScenarioRun) {
        widgets = run.processes.filter { $0.settings.role.isRenderedBySystem }
        buttons = Dictionary(run.processes.compactMap { process in
            process.settings.role.isPerformed ? process.settings.tappedIn.map { (process.name, $0) } : nil
        }, uniquingKeysWith: { first, _ in first })
        hosts = Dictionary(uniqueKeysWithValues: run.processes.filter { $0.settings.role == .host }.map {
            ($0.name, ProcessLifecycle(process: $0.name, role: .host))
        })
    }

    /// Whether the containing app is in the foreground: a host process is active.
    private var appInForeground: Bool {
        hosts.values.contains { $0.state == .active || $0.state == .launching }
    }

    /// The reloads to run after `step`, the top-level step at `position` in the plan and numbered
    /// `index` (requests it makes, and earlier ones it moves the clock past), each as the system's
    /// `reload` step of its widget.
    mutating func after(_ step: ScenarioStep, at position: Int, index: Int) -> [ScenarioStep] {
        visit(step, position: position, index: index)
        return due(by: now, position: position, index: index, request: step).map(\.step)
    }

    /// The reloads due by `moment`, each with the moment it runs (its due time, or `now` when that has
    /// passed), taken from those pending; a policy's reload past its budget waits for the next simulated day,
    /// and each reload's timeline asks for the next one by its policy. `request` is the step a policy's next
    /// reload is noted on.
    mutating func due(by moment: Int64, position: Int, index: Int, request step: ScenarioStep) -> [(at: Int64, step: ScenarioStep)] {
        // In the order they fell due (requests in the order made at one moment): the reloads of several
        // widgets run in time order.
        let due = pending.enumerated().filter { $0.element.due <= moment }
            .sorted { ($0.element.due, $0.offset) < ($1.element.due, $1.offset) }.map(\.element)
        pending.removeAll { $0.due <= moment }
        var reloads: [(at: Int64, step: ScenarioStep)] = []
        for reload in due {
            guard let widget = widgets.first(where: { $0.name == reload.widget }) else { continue }
            let at = max(reload.due, now)
            if reload.byPolicy {
                // The policy's reload counts in the simulated day it runs; past the budget, it waits for the next.
                let day = at / Self.day
                let used = accepted[widget.name]?[day] ?? 0
                guard used < widget.settings.reloadBudget else {
                    var later = reload
                    later.due = (day + 1).multipliedReportingOverflow(by: Self.day).overflow ? .max : (day + 1) * Self.day
                    pending.append(later)
                    continue
                }
                accepted[widget.name, default: [:]][day] = used + 1
            }
            reloads.append((at, ScenarioStep(location: reload.request.location, process: reload.widget,
                                             step: .reload(requestedAt: reload.index, byTimelinePolicy: reload.byPolicy))))
            // The timeline this reload returns asks for the next one.
            if let interval = widget.settings.timelinePolicy.interval?.microseconds {
                pending.append(Pending(widget: widget.name, due: at.addingClamped(interval), position: position, index: index,
                                       request: step, byPolicy: true))
            }
        }
        return reloads
    }

    /// Requests still pending when the steps ran out: a note for each, on its request.
    func unfinished() -> [(Int, String)] {
        pending.filter { !$0.byPolicy }.map { reload in
            (reload.position, "the system would reload \(reload.widget) at \(Self.clockText(reload.due)) on the simulated clock "
                + "(reload-delay), and the run ended first: the reload never ran.")
        }
    }

    mutating func visit(_ step: ScenarioStep, position: Int, index: Int) {
        switch step.step {
        case .advanceClock(let duration), .sleep(let duration):
            // The simulated clock runs on with the run's own time, and a sleep is time the steps say passes.
            now = now.addingClamped(duration.microseconds)
        case .workload(let workload):
            // Its operations are paced over its duration, which passes as a sleep's does.
            now = now.addingClamped(workload.duration.microseconds)
        case .parallel(let children):
            // Branches run side by side: the step takes as long as its longest one.
            let start = now
            var end = now
            for child in children {
                now = start
                visit(child, position: position, index: index)
                end = max(end, now)
            }
            now = end
        case .sequence(let children):
            for child in children { visit(child, position: position, index: index) }
        case .reloadTimelines(let only):
            for widget in widgets where widget.settings.role.traits.launch.reload == .timelines && (only == nil || only == widget.name) {
                request(widget, by: step, position: position, index: index, free: appInForeground)
            }
        case .reloadControls(let only):
            for control in widgets where control.settings.role.traits.launch.reload == .controls && (only == nil || only == control.name) {
                request(control, by: step, position: position, index: index, free: true)
            }
        case .save:
            // The intent's perform() returns: the system reloads the widget or control that ran it, at once.
            if let process = step.process, let name = buttons[process], let widget = widgets.first(where: { $0.name == name }) {
                request(widget, by: step, position: position, index: index, free: true, immediately: true)
            }
        case .launch, .exit, .crash, .terminate, .background, .suspend, .resume, .foreground:
            guard let process = step.process, var lifecycle = hosts[process] else { break }
            let inputs: [LifecycleInput] = switch step.step {
            case .launch: [.launch, .ready]
            case .exit: [.exit]
            case .crash: [.crash]
            case .terminate: [.terminate]
            case .background: [.background]
            case .suspend: [.suspend]
            case .resume: [.resume]
            default: [.foreground]
            }
            // A step the lifecycle refuses is the runner's to report; the schedule keeps the last state.
            for input in inputs { _ = try? lifecycle.handle(input) }
            hosts[process] = lifecycle
        default:
            break
        }
    }

    /// A request to reload `widget`; `free` ones count against no budget (the containing app in the
    /// foreground, an intent run by the widget's button), `immediately` ones take no `reload-delay`.
    private mutating func request(_ widget: RunProcess, by step: ScenarioStep, position: Int, index: Int,
                                  free: Bool = false, immediately: Bool = false) {
        // A reload already waiting covers this request too, as WidgetKit coalesces them; one the timeline's
        // policy scheduled for later gives way to the request, once the budget takes it (a request the
        // system ignores takes no reload's place: the policy's still runs).
        let asked = immediately ? now : now.addingClamped(widget.settings.reloadDelay.microseconds)
        let waiting = pending.firstIndex(where: { $0.widget == widget.name })
        if let waiting, !(pending[waiting].byPolicy && asked < pending[waiting].due) {
            if immediately { pending[waiting].due = min(pending[waiting].due, now) }
            return
        }
        if !free {
            let day = now / Self.day
            let used = accepted[widget.name]?[day] ?? 0
            guard used < widget.settings.reloadBudget else {
                refused.append((position, "the system ignored the request to reload \(widget.name): its budget of "
                    + "\(widget.settings.reloadBudget) reload\(widget.settings.reloadBudget == 1 ? "" : "s") a day (reload-budget) is used up."))
                return
            }
            accepted[widget.name, default: [:]][day] = used + 1
        }
        if let waiting { pending.remove(at: waiting) }
        pending.append(Pending(widget: widget.name, due: asked, position: position, index: index, request: step))
    }

    private static func clockText(_ microseconds: Int64) -> String {
        "+" + Duration(microseconds: microseconds).description
    }
}
