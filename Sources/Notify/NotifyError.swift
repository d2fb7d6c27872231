#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a notification center or the hub could not do what was asked.
public enum NotifyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A socket path does not fit in `sockaddr_un.sun_path`; choose a shorter notify directory.
    case pathTooLong(path: String, limit: Int)
    /// A system call failed; `operation` names it and what it acted on.
    case systemCall(operation: String, errno: Int32)
    /// A notification or process name is empty or contains a newline (the wire separator).
    case invalidName(String)
    /// The center or hub was closed.
    case closed

    public var description: String {
        switch self {
        case let .pathTooLong(path, limit):
            return "The socket path '\(path)' is \(path.utf8.count) bytes, more than the \(limit) a Unix socket allows; use a shorter notify directory."
        case let .systemCall(operation, code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))."
        case let .invalidName(name):
            return "'\(name)' is not a valid notification or process name: it must be non-empty and contain no newline."
        case .closed:
            return "The notification center was closed."
        }
    }

    static func lastError(_ operation: String) -> NotifyError {
        .systemCall(operation: operation, errno: errno)
    }
}
