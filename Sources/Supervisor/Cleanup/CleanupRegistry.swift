import Synchronization

/// Work to do when the runner ends abnormally, after its children are killed: removing the
/// sandboxes of runs still in progress, say. Registered work that finished normally is removed.
public final class CleanupRegistry: Sendable {
    /// The process-wide registry that `ProcessGuard.killAllChildren()` runs.
    public static let shared = CleanupRegistry()

    private let actions = Mutex<(next: Int, byToken: [Int: @Sendable () -> Void])>((0, [:]))

    /// Registers `action`; returns a token to remove it with.
    public func add(_ action: @escaping @Sendable () -> Void) -> Int {
        actions.withLock { state in
            state.next += 1
            state.byToken[state.next] = action
            return state.next
        }
    }

    /// Removes the action registered under `token` without running it.
    public func remove(_ token: Int) {
        _ = actions.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// Held while actions run: a second caller (the `atexit` handler while the signal handler removes a
    /// sandbox) waits for them, so the process cannot exit with a sandbox half removed.
    private let running = Mutex<Void>(())

    /// Runs and removes every registered action; returns once every action any caller took has run.
    func runAll() {
        running.withLock { _ in
            let pending = actions.withLock { state in
                defer { state.byToken.removeAll() }
                return Array(state.byToken.values)
            }
            for action in pending { action() }
        }
    }
}
