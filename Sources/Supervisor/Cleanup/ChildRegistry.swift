import Synchronization

/// Every child spawned and not yet reaped, so exit paths can kill and reap them all.
final class ChildRegistry: Sendable {
    static let shared = ChildRegistry()

    private let children = Mutex<[Int32: ChildProcess]>([:])

    func add(_ child: ChildProcess) {
        children.withLock { $0[child.pid] = child }
    }

    func remove(_ pid: Int32) {
        _ = children.withLock { $0.removeValue(forKey: pid) }
    }

    /// The children not yet reaped.
    var live: [ChildProcess] {
        children.withLock { Array($0.values) }
    }

    /// SIGKILLs every registered child's process group and reaps it.
    func killAll() {
        for child in live { child.kill() }
    }
}
