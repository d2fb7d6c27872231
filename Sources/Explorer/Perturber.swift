import Basics
import ScenarioModel

/// Inserts the perturbations a file's `explore:` allows into its steps, at points drawn from a seed:
/// a suspension with its resume, a trip to the background and back, a crash or a termination with the
/// launch before the process's next step, a window of dropped or delayed notifications. Only where the
/// process's lifecycle allows it, so every schedule is a valid scenario.
///
/// Inserted steps carry `Perturber.location`, so a counterexample tells them from the file's own steps.
public struct Perturber: Sendable {
    /// The location of every step a perturbation inserts.
    public static let location = SourceLocation(file: "<explore>", line: 0, column: 0)

    public let space: ExploreSpace
    /// The notification service extensions the system suspends after a push (`between-pushes: suspend`)
    /// rather than ends: between pushes they may be terminated.
    public let keptAfterPush: Set<String>
    /// At most this many perturbations per schedule (each may insert two steps).
    public var maximum = 3

    public init(space: ExploreSpace, keptAfterPush: Set<String> = []) {
        self.space = space
        self.keptAfterPush = keptAfterPush
    }

    /// `steps` with up to `maximum` perturbations inserted, chosen by `random`.
    public func perturb(_ steps: [ScenarioStep], random: inout SeededRandom) -> [ScenarioStep] {
        guard !space.isEmpty, !steps.isEmpty else { return steps }
        var result = steps
        let count = Int(random.next(below: UInt64(maximum + 1)))
        for _ in 0..<count {
            result = insertOne(into: result, random: &random) ?? result
        }
        return result
    }

    private enum Kind: CaseIterable { case suspend, background, crash, terminate, drop, delay }

    private func processes(for kind: Kind) -> [String] {
        switch kind {
        case .suspend: space.suspend
        case .background: space.background
        case .crash: space.crash
        case .terminate: space.terminate
        case .drop: space.dropNotifications
        case .delay: space.delayNotifications
        }
    }

    /// One perturbation, or nil when the drawn one fits nowhere.
    private func insertOne(into steps: [ScenarioStep], random: inout SeededRandom) -> [ScenarioStep]? {
        let kinds = Kind.allCases.filter { !processes(for: $0).isEmpty }
        guard !kinds.isEmpty else { return nil }
        let kind = kinds[Int(random.next(below: UInt64(kinds.count)))]
        let candidates = processes(for: kind)
        let process = candidates[Int(random.next(below: UInt64(candidates.count)))]
        let states = LifecycleSimulation.states(of: process, over: steps, keptAfterPush: keptAfterPush.contains(process))
        let dirty = LifecycleSimulation.unsaved(of: process, over: steps)
        // Before step `at` (never before the first: the file's own launches come first).
        let points = (1...steps.count).filter { at in
            let state = states[at]
            switch kind {
            case .suspend: return state == .active || state == .background
            // A crash or a termination loses unsaved work, and the file's later steps that use it would
            // fail for that reason alone: only where the process has nothing unsaved.
            case .crash: return (state == .active || state == .background) && !dirty[at]
            case .background: return state == .active
            case .terminate: return (state == .background || state == .suspended) && !dirty[at]
            case .drop, .delay: return true
            }
        }
        guard !points.isEmpty else { return nil }
        let at = points[Int(random.next(below: UInt64(points.count)))]
        func step(_ step: Step, process: String?) -> ScenarioStep {
            ScenarioStep(location: Self.location, process: process, step: step)
        }
        var result = steps
        // The process's next own step after `at`: a suspension or a trip to the background ends before it
        // (a suspended process takes no step), a crash or a termination is followed by a launch before it.
        let next = (at..<steps.count).first { steps[$0].involves(process) }
        switch kind {
        case .suspend, .background:
            let latest = next ?? steps.count
            let end = at + Int(random.next(below: UInt64(latest - at + 1)))
            result.insert(step(kind == .suspend ? .resume : .foreground, process: process), at: end)
            result.insert(step(kind == .suspend ? .suspend : .background, process: process), at: at)
        case .crash, .terminate:
            if let next, steps[next].step != .launch {
                // Launched again, the app loads what its screens show: the fetches it had run.
                let fetches = steps[..<at].filter { $0.process == process && $0.step.keyword == "fetch" }
                    .map { step($0.step, process: process) }
                result.insert(contentsOf: [step(.launch, process: process)] + fetches, at: next)
            }
            result.insert(step(kind == .crash ? .crash : .terminate, process: process), at: at)
        case .drop:
            let windows: [Duration] = [.milliseconds(100), .milliseconds(500), .seconds(2)]
            let window = windows[Int(random.next(below: UInt64(windows.count)))]
            result.insert(step(.fault(.dropNotifications(process: process, duration: window)), process: nil), at: at)
        case .delay:
            let delays: [Duration] = [.milliseconds(20), .milliseconds(200), .seconds(1)]
            let delay = delays[Int(random.next(below: UInt64(delays.count)))]
            result.insert(step(.fault(.delayNotifications(process: process, delay: delay)), process: nil), at: at)
        }
        return result
    }
}

/// Where each process is in its life before each step, as the steps say (the runner's lifecycle rules).
enum LifecycleSimulation {
    /// `result[i]` is the state of `process` before step `i`; `result[steps.count]` after the last. A push
    /// leaves a notification service extension suspended when it is `keptAfterPush`, ended otherwise.
    static func states(of process: String, over steps: [ScenarioStep], keptAfterPush: Bool = false) -> [LifecycleState] {
        var state = LifecycleState.notRunning
        var suspendedFrom = LifecycleState.active
        var result: [LifecycleState] = []
        func apply(_ step: ScenarioStep) {
            if let children = step.step.nestedSteps {
                children.forEach(apply)
                return
            }
            guard step.process == process else { return }
            switch (step.step, state) {
            case (.launch, _) where !state.isRunning: state = .active
            case (.push, _): state = keptAfterPush ? .suspended : .notRunning
            case (.exit, _), (.crash, _), (.terminate, _): state = .notRunning
            case (.background, .active): state = .background
            case (.suspend, .active), (.suspend, .background):
                suspendedFrom = state
                state = .suspended
            case (.resume, .suspended): state = suspendedFrom
            case (.foreground, .background), (.foreground, .suspended): state = .active
            default: break
            }
        }
        for step in steps {
            result.append(state)
            apply(step)
        }
        result.append(state)
        return result
    }

    /// `result[i]` is whether `process` has unsaved changes before step `i`.
    static func unsaved(of process: String, over steps: [ScenarioStep]) -> [Bool] {
        var dirty = false
        var result: [Bool] = []
        func apply(_ step: ScenarioStep) {
            if let children = step.step.nestedSteps {
                children.forEach(apply)
                return
            }
            guard step.process == process else { return }
            let changes = step.step.unsavedChanges
            if changes == .made { dirty = true } else if changes.endsThem { dirty = false }
        }
        for step in steps {
            result.append(dirty)
            apply(step)
        }
        result.append(dirty)
        return result
    }
}

extension ScenarioStep {
    /// Whether the step is one of `process`'s (inside a `parallel` too), or a workload it takes part in.
    func involves(_ process: String) -> Bool {
        if self.process == process { return true }
        switch step {
        case .parallel(let children), .sequence(let children): return children.contains { $0.involves(process) }
        case .workload(let workload): return workload.processes.contains(process)
        default: return false
        }
    }
}
