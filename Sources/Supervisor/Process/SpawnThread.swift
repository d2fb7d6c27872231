import Foundation
import Synchronization

/// One thread that lives as long as the runner and performs every spawn.
///
/// Linux sends a child's parent-death signal (`PR_SET_PDEATHSIG`) when the *thread* that created
/// it exits, not the process. Swift concurrency and Dispatch retire idle worker threads, so a
/// child spawned from one of them would be SIGKILLed seconds later for no reason. Spawning from
/// this thread ties the signal to the runner process's lifetime.
final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    private final class Jobs: Sendable {
        let pending = Mutex<[@Sendable () -> Void]>([])
        let available = DispatchSemaphore(value: 0)
    }

    private let jobs = Jobs()

    private init() {
        let thread = Thread { [jobs] in
            while true {
                jobs.available.wait()
                let job = jobs.pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "supervisor.spawn"
        thread.start()
    }

    /// Runs `body` on the spawn thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        jobs.pending.withLock {
            $0.append {
                let value = body()
                result.withLock { $0 = value }
                done.signal()
            }
        }
        jobs.available.signal()
        done.wait()
        return result.withLock { $0! }
    }
}
