/// Where a process is in its life, as the runner tracks it.
public enum LifecycleState: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Never launched in this run.
    case notRunning = "not-running"
    /// Spawned; not yet ready (the trace's `launched` marks it ready).
    case launching = "launched"
    /// In the foreground.
    case active
    /// Running in the background (still receives notifications).
    case background
    /// SIGSTOPped: runs nothing.
    case suspended
    /// Exited cleanly (on request, or on its own with code 0).
    case exited
    /// Killed by a crash (SIGKILL), or ended on its own with a failure.
    case crashed
    /// Terminated by the system (SIGKILL).
    case terminated
    /// Killed from outside the run (a signal no step sent).
    case killed

    /// True while there is an OS process: launching, active, background or suspended.
    public var isRunning: Bool {
        switch self {
        case .launching, .active, .background, .suspended: return true
        case .notRunning, .exited, .crashed, .terminated, .killed: return false
        }
    }

    public var description: String {
        switch self {
        case .notRunning: return "not running"
        case .launching: return "launching"
        case .active: return "active"
        case .background: return "in the background"
        case .suspended: return "suspended"
        case .exited: return "exited"
        case .crashed: return "crashed"
        case .terminated: return "terminated"
        case .killed: return "killed from outside the run"
        }
    }
}

