

/// One process's lifecycle as a pure state machine: `(state, input) -> (state, actions)`.
///
/// No processes, signals or clocks: the runner feeds it scenario actions and what the child did,
/// and performs the actions it returns, in order. Invalid inputs throw a `LifecycleError` naming
/// the process and its state, and leave the state unchanged.
///
/// | from | input | to | actions |
/// |---|---|---|---|
/// | not running, exited, crashed, terminated | launch | launching | notifyHub(launching), spawn |
/// | launching | ready | active | notifyHub(active) |
/// | active, background | exit | exited | notifyHub(exited), sendExitRequest |
/// | launching, active, background, suspended | crash | crashed | notifyHub(crashed), sendSignal(kill) |
/// | launching, active, background, suspended | terminate | terminated | notifyHub(terminated), sendSignal(kill) |
/// | active | background | background | notifyHub(background) |
/// | active, background | suspend | suspended | notifyHub(suspended), sendSignal(stop) |
/// | suspended | resume | the state it was suspended from | sendSignal(continue), notifyHub(..) [, runRefreshOnActivation] |
/// | background | foreground | active | notifyHub(active), runRefreshOnActivation |
/// | suspended | foreground | active | sendSignal(continue), notifyHub(active), runRefreshOnActivation |
/// | launching, active, background, suspended | childExited | exited (code 0) or crashed | notifyHub(..), reportUnexpectedExit |
/// | launching | storeLoadFailed | crashed | notifyHub(crashed) |
/// | launching (no child: waiting to load its store) | exit | exited | notifyHub(exited) |
///
/// Asking for the state a process is already in (background twice, resume while running) does
/// nothing. The hub hears of a suspension before the SIGSTOP, so it holds deliveries from then on,
/// and of a resumption after the SIGCONT, so what it releases is read at once.
///
/// ```swift
/// var app = ProcessLifecycle(process: "app", role: .host)
/// for action in try app.handle(.launch) { try perform(action) }   // notifyHub(.launching), spawn
/// ```
public struct ProcessLifecycle: Sendable, Equatable {
    /// The scenario's process.
    public let process: String
    /// Its role.
    public let role: ProcessRole
    /// Where it is now.
    public private(set) var state: LifecycleState = .notRunning
    /// Where `resume` returns to: active or background.
    private var suspendedFrom: LifecycleState = .active

    /// A process that has not been launched.
    public init(process: String, role: ProcessRole) {
        self.process = process
        self.role = role
    }

    /// Applies `input` and returns the actions to perform, in order.
    public mutating func handle(_ input: LifecycleInput) throws(LifecycleError) -> [LifecycleAction] {
        switch (input, state) {
        case (.launch, let current) where !current.isRunning:
            return move(to: .launching, [.notifyHub(.launching), .spawn])
        case (.ready, .launching):
            return move(to: .active, [.notifyHub(.active)])

        case (.exit, .active), (.exit, .background):
            return move(to: .exited, [.notifyHub(.exited), .sendExitRequest])
        case (.exit, .launching):
            // Only a process still waiting to load its store is launching between steps: no agent to ask.
            return move(to: .exited, [.notifyHub(.exited)])
        case (.storeLoadFailed, .launching):
            return move(to: .crashed, [.notifyHub(.crashed)])
        case (.crash, let current) where current.isRunning:
            return move(to: .crashed, [.notifyHub(.crashed), .sendSignal(.kill)])
        case (.terminate, let current) where current.isRunning:
            return move(to: .terminated, [.notifyHub(.terminated), .sendSignal(.kill)])

        case (.background, .active):
            return move(to: .background, [.notifyHub(.background)])
        case (.background, .background), (.foreground, .active), (.suspend, .suspended),
             (.resume, .active), (.resume, .background):
            return []

        case (.suspend, .active), (.suspend, .background):
            suspendedFrom = state
            return move(to: .suspended, [.notifyHub(.suspended), .sendSignal(.stop)])
        case (.resume, .suspended):
            let target = suspendedFrom
            let refresh: [LifecycleAction] = target == .active ? [.runRefreshOnActivation] : []
            return move(to: target, [.sendSignal(.continue), .notifyHub(target)] + refresh)
        case (.foreground, .background):
            return move(to: .active, [.notifyHub(.active), .runRefreshOnActivation])
        case (.foreground, .suspended):
            return move(to: .active, [.sendSignal(.continue), .notifyHub(.active), .runRefreshOnActivation])

        case (.childExited(let status), let current) where current.isRunning:
            let ended: LifecycleState = status.isSuccess ? .exited : .crashed
            return move(to: ended, [.notifyHub(ended), .reportUnexpectedExit(status)])
        case (.childExited, _):
            return []

        default:
            throw LifecycleError(process: process, input: input, state: state)
        }
    }

    private mutating func move(to newState: LifecycleState, _ actions: [LifecycleAction]) -> [LifecycleAction] {
        state = newState
        return actions
    }
}
