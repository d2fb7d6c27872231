import Agent
import Basics
import Notify
import Trace

/// Where the runner sends what the notification system must know: the real hub (sockets, its own
/// thread, the machine's clock) in real time, or `ScriptedHub` (the same state machine, driven by the
/// runner on virtual time) in the deterministic mode.
protocol NotificationRouter: AnyObject {
    func setPolicy(_ policy: DeliveryPolicy, for process: String)
    func setLifecycle(_ state: HubProcessState, for process: String)
    func dropNotifications(to process: String, for duration: Duration)
    func delayNotifications(to process: String, by duration: Duration)
    func close()
}

extension NotifyHub: NotificationRouter {}

/// The hub of the deterministic mode: `HubStateMachine` fed by the runner. Agents post and observe
/// through a `ScriptedNotificationCenter` and say so in their replies (`route(_:from:)`); deliveries
/// wait here until the runner hands them to their process with a request (`take(for:)`); delayed
/// deliveries and drop windows end at virtual deadlines the runner reaches (`tick(at:)`).
final class ScriptedHub: NotificationRouter {
    private var machine: HubStateMachine
    private var pending: [String: [HubDelivery]] = [:]
    private let clock: RunClock
    private let recorder: TraceRecorder

    init(clock: RunClock, recorder: TraceRecorder) {
        machine = HubStateMachine()
        self.clock = clock
        self.recorder = recorder
    }

    func setPolicy(_ policy: DeliveryPolicy, for process: String) {
        handle(.policy(process: process, policy: policy))
    }

    func setLifecycle(_ state: HubProcessState, for process: String) {
        handle(.lifecycle(process: process, state: state))
        // Nothing reaches a process that is not running, even what was routed before it stopped.
        if state == .notRunning { pending[process] = nil }
    }

    func dropNotifications(to process: String, for duration: Duration) {
        let (until, overflow) = clock.current.addingReportingOverflow(MonotonicClock.nanoseconds(duration))
        handle(.dropNotifications(to: process, until: overflow ? .max : until))
    }

    func delayNotifications(to process: String, by duration: Duration) {
        handle(.delayNotifications(to: process, by: MonotonicClock.nanoseconds(duration)))
    }

    func close() {}

    /// What an agent posted and started or stopped observing while it handled a request.
    func route(_ activity: NotificationActivity, from process: String) {
        for name in activity.observed { handle(.observe(process: process, name: name)) }
        for name in activity.unobserved { handle(.unobserve(process: process, name: name)) }
        for post in activity.posts { handle(.post(from: process, name: post.name, postedAt: post.at)) }
    }

    /// The deliveries routed to `process` and not yet handed over, in order; they are handed over now.
    func take(for process: String) -> [DeliveredNotification] {
        let deliveries = pending.removeValue(forKey: process) ?? []
        return deliveries.map { DeliveredNotification(name: $0.name, poster: $0.poster, postedAt: $0.postedAt) }
    }

    /// Whether deliveries wait for `process`.
    func hasPending(for process: String) -> Bool { !(pending[process] ?? []).isEmpty }

    /// The processes deliveries wait for.
    var processesWithPending: Set<String> { Set(pending.filter { !$0.value.isEmpty }.keys) }

    /// When a delayed delivery is released or a drop window ends, if any is due.
    var nextDeadline: UInt64? { machine.nextDeadline }

    /// Applies what is due at `t` (a virtual deadline the runner reached).
    func tick(at t: UInt64) {
        handle(.tick, at: t)
    }

    private func handle(_ input: HubInput, at t: UInt64? = nil) {
        let output = machine.handle(input, at: t ?? clock.now())
        for delivery in output.deliveries { pending[delivery.process, default: []].append(delivery) }
        for record in output.records {
            if let kind = ScenarioRunner.traceKind(of: record) { recorder.record(kind, at: record.at) }
        }
    }
}
