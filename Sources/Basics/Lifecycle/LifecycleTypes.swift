

/// Something that happens to a process: a scenario's lifecycle action, or what the child did.
public enum LifecycleInput: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Start it (again).
    case launch
    /// The child said it is ready.
    case ready
    /// Ask it to exit cleanly.
    case exit
    /// Kill it now (SIGKILL); unsaved work is lost.
    case crash
    /// Move it to the background.
    case background
    /// Suspend it (SIGSTOP).
    case suspend
    /// Resume it (SIGCONT) into the state it was suspended from.
    case resume
    /// Bring it to the foreground (resuming it if suspended).
    case foreground
    /// The system terminates it (SIGKILL).
    case terminate
    /// The child exited on its own, or after a request or kill.
    case childExited(ProcessExit)
    /// The child could not load its store at launch and ended, as an app whose template calls
    /// `fatalError` in `loadPersistentStores`'s handler.
    case storeLoadFailed

    /// The verb for error messages: "cannot suspend 'share'".
    public var verb: String {
        switch self {
        case .launch: return "launch"
        case .ready: return "mark ready"
        case .exit: return "exit"
        case .crash: return "crash"
        case .background: return "background"
        case .suspend: return "suspend"
        case .resume: return "resume"
        case .foreground: return "foreground"
        case .terminate: return "terminate"
        case .childExited: return "record the exit of"
        case .storeLoadFailed: return "record the failed store load of"
        }
    }

    public var description: String {
        if case let .childExited(status) = self { return "child \(status)" }
        return verb
    }
}

/// What the runner must do, in order, after a transition.
public enum LifecycleAction: Sendable, Equatable, Hashable {
    /// Start the OS process (through its `ProcessLauncher`).
    case spawn
    /// Send a signal to the process's group.
    case sendSignal(ProcessSignal)
    /// Ask the agent to exit cleanly (a message on its stdin), then await its exit with a timeout.
    case sendExitRequest
    /// Tell the notify hub the new state: launching and active map to the hub's active,
    /// background and suspended to themselves, every other state to not running.
    case notifyHub(LifecycleState)
    /// Run the process's refresh strategy (for `trigger: activation`): it became active again.
    case runRefreshOnActivation
    /// The child ended when nobody asked it to: record it in the trace and the report.
    case reportUnexpectedExit(ProcessExit)
}

/// A lifecycle input that makes no sense in the process's current state.
///
/// Its description is a sentence for the scenario author: "cannot suspend 'share': it is not running".
public struct LifecycleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scenario's process.
    public var process: String
    /// What was asked.
    public var input: LifecycleInput
    /// The state it was in.
    public var state: LifecycleState

    /// Creates an error.
    public init(process: String, input: LifecycleInput, state: LifecycleState) {
        self.process = process
        self.input = input
        self.state = state
    }

    public var description: String {
        "cannot \(input.verb) '\(process)': \(reason)"
    }

    private var reason: String {
        switch (input, state) {
        case (.launch, _): return "it is already running (\(state))"
        case (.ready, _): return "it is not launching (\(state))"
        case (_, .launching): return "it is still launching; wait until it is ready"
        case (_, .suspended): return "it is suspended; resume it first"
        case (_, .notRunning): return "it is not running; launch it first"
        default: return "it is not running (\(state)); launch it first"
        }
    }
}
