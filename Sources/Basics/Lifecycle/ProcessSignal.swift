#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals the supervisor sends, with their lifecycle meaning.
public enum ProcessSignal: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// SIGSTOP: suspend (runs nothing until continued; cannot be caught).
    case stop
    /// SIGCONT: resume a stopped process.
    case `continue`
    /// SIGKILL: crash or terminate at once; works on stopped processes too.
    case kill
    /// SIGTERM: ask politely.
    case terminate

    /// The signal number.
    public var number: Int32 {
        switch self {
        case .stop: return SIGSTOP
        case .continue: return SIGCONT
        case .kill: return SIGKILL
        case .terminate: return SIGTERM
        }
    }

    public var description: String { ProcessExit.signalName(number) }
}
