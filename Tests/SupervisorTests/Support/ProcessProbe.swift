import Foundation

/// Looks at a pid from outside, through `kill(pid, 0)` and `/proc`.
enum ProcessProbe {
    /// True when no process with `pid` can run: it does not exist, or is a zombie nobody reaped yet.
    static func isGone(_ pid: Int32) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        return state(of: pid) == "Z"
    }

    /// True when `kill(pid, 0)` fails with ESRCH: the process was reaped.
    static func isReaped(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The state letter from `/proc/<pid>/stat`: R, S, T (stopped), Z (zombie); nil if none.
    static func state(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// Waits up to `timeout` for `condition`.
    static func eventually(_ timeout: Duration = .seconds(1), _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }
}
