import Agent
import Basics
import Notify
import Trace

/// The hub of the deterministic mode: `HubStateMachine` (the same code as the real hub's) fed by the
/// runner. Agents post and observe through a `ScriptedNotificationCenter` and say so in their replies
/// (`route(_:from:)`); deliveries wait here until the runner hands them to their process with a request
/// (`take(for:)`); delayed deliveries and drop windows end at virtual deadlines the runner reaches
/// (`tick(at:)`). Each waiting delivery remembers the step during which it was routed, so that a
/// schedule that held it back can be written with the hold where it began.
final class ScriptedHub: NotificationRouter {
    private var machine: HubStateMachine
    private var pending: [String: [(delivery: HubDelivery, mark: Double, at: UInt64)]] = [:]
    private let time: any TimeSource
    let recorder: TraceRecorder
    /// Where the runner's executed steps are when a delivery is routed (`ExecutedSteps.routingMark`).
    var mark: () -> Double = { 0 }

    init(time: any TimeSource, recorder: TraceRecorder) {
        machine = HubStateMachine()
        self.time = time
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

    func dropNotifications(to process: String, for duration: Swift.Duration) {
        handle(.dropNotifications(to: process, until: time.now.addingClamped(MonotonicClock.nanoseconds(duration))))
    }

    func delayNotifications(to process: String, by duration: Swift.Duration) {
        handle(.delayNotifications(to: process, by: MonotonicClock.nanoseconds(duration)))
    }

    func hold(_ process: String) {
        handle(.hold(process: process))
    }

    func release(_ process: String) {
        handle(.release(process: process))
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
        return deliveries.map { DeliveredNotification(name: $0.delivery.name, poster: $0.delivery.poster, postedAt: $0.delivery.postedAt) }
    }

    /// Whether deliveries wait for `process`.
    func hasPending(for process: String) -> Bool { !(pending[process] ?? []).isEmpty }

    /// Where the runner's steps were when the oldest delivery waiting for `process` was routed.
    func oldestMark(for process: String) -> Double? { pending[process]?.first?.mark }

    /// When the oldest delivery waiting for `process` was routed.
    func oldestRouting(for process: String) -> UInt64? { pending[process]?.first?.at }

    /// When a delayed delivery is released or a drop window ends, if any is due.
    var nextDeadline: UInt64? { machine.nextDeadline }

    var lastDelayedDue: UInt64? { machine.lastDelayedDue }

    /// Applies what is due at `t` (a virtual deadline the runner reached).
    func tick(at t: UInt64) {
        handle(.tick, at: t)
    }

    private func handle(_ input: HubInput, at t: UInt64? = nil) {
        let at = t ?? time.reading()
        let output = machine.handle(input, at: at)
        let mark = output.deliveries.isEmpty ? 0 : mark()
        for delivery in output.deliveries { pending[delivery.process, default: []].append((delivery, mark, at)) }
        for record in output.records {
            if let kind = ScenarioRunner.traceKind(of: record) { recorder.record(kind, at: record.at) }
        }
    }
}
