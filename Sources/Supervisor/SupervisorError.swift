#if canImport(Glibc)
import Basics
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why supervising a child failed; every case names the process and what was awaited or attempted.
public enum SupervisorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `posix_spawn` could not start `executable` for `process`.
    case spawnFailed(process: String, executable: String, errno: Int32)
    /// `process` did not produce `awaiting` within `after`.
    case timedOut(process: String, awaiting: String, after: Duration)
    /// `process` closed its output (usually: it exited) while the runner awaited `awaiting`.
    case endOfOutput(process: String, awaiting: String)
    /// Writing to `process`'s input failed.
    case writeFailed(process: String, errno: Int32)
    /// `process` was already reaped, so it cannot be signalled or awaited again.
    case alreadyExited(process: String, status: ProcessExit)
    /// A system call failed while supervising `process`.
    case systemCall(process: String, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case let .spawnFailed(process, executable, code):
            return "Could not start '\(process)' from \(executable): \(Self.text(code)). Check that the executable exists and is built."
        case let .timedOut(process, awaiting, after):
            return "Timed out after \(after) waiting for '\(process)' to \(awaiting)."
        case let .endOfOutput(process, awaiting):
            return "'\(process)' closed its output while the runner waited for it to \(awaiting); see its stderr."
        case let .writeFailed(process, code):
            return "Could not write to '\(process)': \(Self.text(code))."
        case let .alreadyExited(process, status):
            return "'\(process)' has already \(status)."
        case let .systemCall(process, operation, code):
            return "\(operation) for '\(process)' failed: \(Self.text(code))."
        }
    }

    private static func text(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
