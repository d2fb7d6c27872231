import Basics
import Foundation
import Notify
import SharedStore
import Synchronization

/// The simulated wall clock: the real date plus every `clock: advance` so far; in the deterministic mode
/// a fixed date (2026-01-01T00:00:00Z) plus the virtual time.
///
/// History timestamps, purges by age and positive staleness intervals run on it; waits, `within`
/// and latency run on the process's `TimeSource` instead.
final class AgentClock: StoreClock, Sendable {
    /// Where the simulated date comes from.
    enum Origin: Sendable {
        /// The machine's date.
        case machine
        /// `virtualEpoch` plus the virtual time.
        case virtual(any TimeSource)
    }

    private let offset: Atomic<UInt64>
    private let origin: Origin
    /// The wall-clock date of virtual time zero.
    static let virtualEpoch = Date(timeIntervalSince1970: 1_767_225_600)

    init(offsetNanos: UInt64, origin: Origin) {
        offset = Atomic(offsetNanos)
        self.origin = origin
    }

    var now: Date {
        let offset = Double(offset.load(ordering: .relaxed)) / 1e9
        switch origin {
        case .machine: return Date().addingTimeInterval(offset)
        case .virtual(let time): return Self.virtualEpoch.addingTimeInterval(Double(time.now) / 1e9 + offset)
        }
    }

    func advance(byNanos nanos: UInt64) {
        _ = offset.wrappingAdd(nanos, ordering: .relaxed)
    }
}

/// The world an agent acts in, chosen once from its config: real time (the machine's clock, the run's
/// hub, its own poll timer, SQLite waiting on locks) or the deterministic mode's (a virtual clock the
/// runner moves, notifications routed by the runner, the runner's timers and lock waits). Nothing else
/// in the agent asks which one it is in.
struct AgentWorld {
    /// The clock the trace is stamped with.
    let time: any TimeSource
    /// The simulated wall clock.
    let clock: AgentClock
    /// Whether the agent runs its own poll timer (`trigger: poll`); the runner fires it otherwise.
    let runsOwnTimers: Bool
    /// How the store meets another process's lock.
    let lockWaits: LockWaits
    /// The center the runner routes (the deterministic mode's), nil where the hub's sockets carry them.
    let routedCenter: ScriptedNotificationCenter?

    init(config: AgentConfig) {
        if let start = config.virtualStart {
            let time = VirtualTime(start: start)
            self.time = time
            clock = AgentClock(offsetNanos: config.clockOffsetNanos, origin: .virtual(time))
            runsOwnTimers = false
            lockWaits = .report
            routedCenter = ScriptedNotificationCenter(process: config.process, clock: { time.reading() })
        } else {
            time = MachineTime()
            clock = AgentClock(offsetNanos: config.clockOffsetNanos, origin: .machine)
            runsOwnTimers = true
            lockWaits = .wait
            routedCenter = nil
        }
    }

    /// What the agent posted and started or stopped observing since the last reply, for the runner to
    /// route; nil where the hub's sockets carried it.
    func takeActivity() -> NotificationActivity? {
        guard let activity = routedCenter?.takeActivity() else { return nil }
        let wire = NotificationActivity(
            posts: activity.posts.map { PostedNotification(name: $0.name, at: $0.at) },
            observed: activity.observed, unobserved: activity.unobserved)
        return wire.isEmpty ? nil : wire
    }

    /// Hands the runner's deliveries to the observers of the routed center (none arrive otherwise).
    func deliver(_ notifications: [DeliveredNotification], to process: String) {
        for note in notifications {
            routedCenter?.deliver(NotificationDelivery(
                name: note.name, postedAt: note.postedAt, receivedAt: time.reading(), poster: note.poster,
                isOwnPost: note.poster == process))
        }
    }
}
