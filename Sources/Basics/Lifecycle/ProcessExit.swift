#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a child process ended, decoded from a `waitpid` status.
public enum ProcessExit: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The process called `exit` (or returned from `main`) with this code.
    case exited(code: Int32)
    /// A signal ended the process (`SIGKILL` for a crash or a termination).
    case killed(signal: Int32)

    /// Decodes the status word `waitpid` stores.
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited(code: (status >> 8) & 0xff)
        } else {
            self = .killed(signal: signal)
        }
    }

    /// True for `exit(0)`.
    public var isSuccess: Bool { self == .exited(code: 0) }

    public var description: String {
        switch self {
        case let .exited(code): return "exited with code \(code)"
        case let .killed(signal): return "killed by \(ProcessExit.signalName(signal))"
        }
    }

    /// `SIGKILL` for 9, and so on; `signal N` for ones without a common name.
    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: return "SIGHUP"
        case SIGINT: return "SIGINT"
        case SIGQUIT: return "SIGQUIT"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGPIPE: return "SIGPIPE"
        case SIGTERM: return "SIGTERM"
        case SIGSTOP: return "SIGSTOP"
        case SIGCONT: return "SIGCONT"
        default: return "signal \(signal)"
        }
    }
}
