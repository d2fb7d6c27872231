import Basics
import Foundation
import Notify
import Synchronization

/// Collects deliveries from a handler thread and lets a test wait for them.
final class Collector: Sendable {
    private let received = Mutex<[NotificationDelivery]>([])

    /// A handler that appends to this collector.
    var handler: @Sendable (NotificationDelivery) -> Void {
        { [self] delivery in received.withLock { $0.append(delivery) } }
    }

    /// Everything received so far.
    var deliveries: [NotificationDelivery] { received.withLock { $0 } }

    /// Waits until `count` deliveries arrived or `timeout` passed; returns what arrived.
    @discardableResult
    func wait(for count: Int, timeout: Duration = .seconds(5)) -> [NotificationDelivery] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = deliveries
            if current.count >= count { return current }
            usleep(1_000)
        }
        return deliveries
    }

    /// Waits `quiet` and returns what arrived, for asserting that nothing does.
    func settle(_ quiet: Duration = .milliseconds(100)) -> [NotificationDelivery] {
        let deadline = ContinuousClock.now + quiet
        while ContinuousClock.now < deadline { usleep(1_000) }
        return deliveries
    }
}

/// Records every hub record, for assertions on the trace.
final class RecordLog: Sendable {
    private let records = Mutex<[HubRecord]>([])

    var handler: @Sendable (HubRecord) -> Void {
        { [self] record in records.withLock { $0.append(record) } }
    }

    func kinds(for process: String) -> [HubDecision] {
        records.withLock { $0.filter { $0.process == process && $0.kind != .posted }.map(\.kind) }
    }

    /// Waits until `condition` holds for `process`'s records (the hub records on its own thread), or
    /// `timeout` passes; returns whether it held.
    func wait(for process: String = "app", timeout: Duration = .seconds(10), _ condition: ([HubDecision]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(kinds(for: process)) { return true }
            usleep(1_000)
        }
        return condition(kinds(for: process))
    }
}

/// A monotonic clock a test moves by hand.
final class ManualClock: Sendable {
    private let now: Mutex<UInt64>

    init(start: UInt64) { now = Mutex(start) }

    var read: @Sendable () -> UInt64 { { [self] in now.withLock { $0 } } }

    func advance(by nanos: UInt64) { now.withLock { $0 += nanos } }
}
