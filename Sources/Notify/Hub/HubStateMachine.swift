import Basics

/// The hub's decisions, as a pure state machine: `(state, input, now) -> (state, deliveries, records)`.
///
/// No sockets, threads or clocks: `NotifyHub` feeds it the datagrams it receives, the runner's
/// lifecycle changes and faults, and the current time, then sends the deliveries it returns.
/// Tests drive it directly with a manual clock.
///
/// The rules, mirroring Darwin notifications on iOS:
/// - A post reaches the processes observing its name at the time of the post, the poster
///   included (its delivery says `isOwnPost`); a process that observes later gets no replay.
/// - Active and background processes receive at once.
/// - A suspended process receives by its `DeliveryPolicy` when it resumes: `coalesce` delivers
///   each distinct name once, `queue` every post in order, `drop` nothing.
/// - A process that is not running receives nothing. When it stops running its observers are
///   gone (a relaunch registers again) and whatever was held or delayed for it is dropped.
/// - Faults: `dropNotifications` drops deliveries decided before its deadline;
///   `delayNotifications` holds each delivery back by a duration, released by `tick` once due,
///   and then judged by the receiver's state at release; `hold` keeps every delivery to a process
///   until `release`, which delivers them in order (to a process suspended meanwhile, at its resume,
///   whatever its policy: they had reached it while it ran).
///
/// ```swift
/// var hub = HubStateMachine()
/// _ = hub.handle(.lifecycle(process: "app", state: .active), at: 0)
/// _ = hub.handle(.observe(process: "app", name: "didSave"), at: 1)
/// let output = hub.handle(.post(from: "share", name: "didSave", postedAt: 2), at: 3)
/// // output.deliveries == [HubDelivery(process: "app", name: "didSave", poster: "share", postedAt: 2, at: 3)]
/// ```
public struct HubStateMachine: Sendable {
    private struct Held: Sendable {
        var name: String
        var poster: String
        var postedAt: UInt64
    }

    private struct Delayed: Sendable {
        var due: UInt64
        var sequence: UInt64
        var process: String
        var post: Held
    }

    /// The policy for processes that were given none.
    public var defaultPolicy: DeliveryPolicy
    private var states: [String: HubProcessState] = [:]
    private var policies: [String: DeliveryPolicy] = [:]
    private var observers: [String: [String]] = [:]
    private var formerObservers: [String: [String]] = [:]
    private var held: [String: [Held]] = [:]
    private var delayed: [Delayed] = []
    private var dropUntil: [String: UInt64] = [:]
    private var delayBy: [String: UInt64] = [:]
    /// The processes whose deliveries the runner holds (`hold`, counted: each `release` ends one), and
    /// what it holds for them.
    private var holding: [String: Int] = [:]
    private var withheld: [String: [Held]] = [:]
    private var sequence: UInt64 = 0

    /// A hub where every process is not running and observes nothing.
    public init(defaultPolicy: DeliveryPolicy = .coalesce) {
        self.defaultPolicy = defaultPolicy
    }

    /// The lifecycle state the hub holds for `process`.
    public func state(of process: String) -> HubProcessState {
        states[process] ?? .notRunning
    }

    /// The delivery policy of `process`.
    public func policy(of process: String) -> DeliveryPolicy {
        policies[process] ?? defaultPolicy
    }

    /// The processes observing `name`, in the order they registered.
    public func observers(of name: String) -> [String] {
        observers[name] ?? []
    }

    /// The earliest time a delayed delivery falls due, for the hub thread's sleep.
    public var nextDeadline: UInt64? {
        delayed.map(\.due).min()
    }

    /// The latest time a delayed delivery falls due: once it has passed, every delivery a
    /// `delayNotifications` fault held back has been released.
    public var lastDelayedDue: UInt64? {
        delayed.map(\.due).max()
    }

    /// Applies `input` at time `now` (monotonic ns) and returns what to deliver and record.
    public mutating func handle(_ input: HubInput, at now: UInt64) -> HubOutput {
        var output = HubOutput()
        switch input {
        case let .observe(process, name):
            observe(name, by: process, at: now, into: &output)
        case let .unobserve(process, name):
            if let index = observers[name]?.firstIndex(of: process) {
                observers[name]?.remove(at: index)
                output.records.append(HubRecord(kind: .unobserved, process: process, name: name, at: now))
            }
        case let .post(poster, name, postedAt):
            post(name, from: poster, postedAt: postedAt, at: now, into: &output)
        case let .lifecycle(process, state):
            changeState(of: process, to: state, at: now, into: &output)
        case let .policy(process, policy):
            policies[process] = policy
        case let .dropNotifications(process, until):
            dropUntil[process] = until
        case let .delayNotifications(process, by):
            delayBy[process] = by == 0 ? nil : by
        case let .hold(process):
            holding[process, default: 0] += 1
        case let .release(process):
            guard let count = holding[process] else { break }
            holding[process] = count > 1 ? count - 1 : nil
            guard count == 1 else { break }
            // What was held had reached a running process: one suspended since has it waiting, whatever
            // its policy for posts that come while it is suspended, and handles it when it resumes.
            for post in withheld.removeValue(forKey: process) ?? [] {
                if state(of: process) == .suspended {
                    held[process, default: []].append(post)
                    output.records.append(record(.queued, to: process, post, at: now))
                } else {
                    decide(post, for: process, at: now, into: &output)
                }
            }
        case .tick:
            releaseDelayed(at: now, into: &output)
        }
        return output
    }

    private mutating func observe(_ name: String, by process: String, at now: UInt64, into output: inout HubOutput) {
        guard state(of: process) != .notRunning else {
            output.records.append(HubRecord(kind: .observeIgnored, process: process, name: name, at: now))
            return
        }
        formerObservers[name]?.removeAll { $0 == process }
        guard !(observers[name] ?? []).contains(process) else { return }
        observers[name, default: []].append(process)
        output.records.append(HubRecord(kind: .observed, process: process, name: name, at: now))
    }

    private mutating func post(
        _ name: String, from poster: String, postedAt: UInt64, at now: UInt64, into output: inout HubOutput
    ) {
        output.records.append(HubRecord(kind: .posted, process: poster, name: name, poster: poster, postedAt: postedAt, at: now))
        let post = Held(name: name, poster: poster, postedAt: postedAt)
        for process in observers(of: name) {
            if let until = dropUntil[process], now < until {
                output.records.append(record(.droppedByFault, to: process, post, at: now))
            } else if let delay = delayBy[process] {
                sequence += 1
                delayed.append(Delayed(due: now + delay, sequence: sequence, process: process, post: post))
                output.records.append(record(.delayed, to: process, post, at: now))
            } else {
                decide(post, for: process, at: now, into: &output)
            }
        }
        for process in formerObservers[name] ?? [] {
            output.records.append(record(.droppedNotRunning, to: process, post, at: now))
        }
    }

    /// Delivers, holds or drops `post` for `process` by its state and policy.
    private mutating func decide(_ post: Held, for process: String, at now: UInt64, into output: inout HubOutput) {
        switch state(of: process) {
        case .active, .background:
            deliver(post, to: process, at: now, into: &output)
        case .notRunning:
            output.records.append(record(.droppedNotRunning, to: process, post, at: now))
        case .suspended:
            switch policy(of: process) {
            case .drop:
                output.records.append(record(.droppedWhileSuspended, to: process, post, at: now))
            case .queue:
                held[process, default: []].append(post)
                output.records.append(record(.queued, to: process, post, at: now))
            case .coalesce:
                if (held[process] ?? []).contains(where: { $0.name == post.name }) {
                    output.records.append(record(.coalesced, to: process, post, at: now))
                } else {
                    held[process, default: []].append(post)
                    output.records.append(record(.queued, to: process, post, at: now))
                }
            }
        }
    }

    private mutating func changeState(
        of process: String, to newState: HubProcessState, at now: UInt64, into output: inout HubOutput
    ) {
        let oldState = state(of: process)
        states[process] = newState
        if newState == .notRunning, oldState != .notRunning {
            // What held its deliveries held them for this run of the process.
            holding[process] = nil
            for name in observers.keys.sorted() where observers[name]?.contains(process) == true {
                observers[name]?.removeAll { $0 == process }
                formerObservers[name, default: []].append(process)
            }
            for post in (held.removeValue(forKey: process) ?? []) + (withheld.removeValue(forKey: process) ?? []) {
                output.records.append(record(.droppedNotRunning, to: process, post, at: now))
            }
            for entry in delayed where entry.process == process {
                output.records.append(record(.droppedNotRunning, to: process, entry.post, at: now))
            }
            delayed.removeAll { $0.process == process }
        }
        if oldState == .notRunning, newState != .notRunning {
            for name in formerObservers.keys { formerObservers[name]?.removeAll { $0 == process } }
        }
        if oldState == .suspended, newState.isRunning {
            for post in held.removeValue(forKey: process) ?? [] {
                deliver(post, to: process, at: now, into: &output)
            }
        }
    }

    private mutating func releaseDelayed(at now: UInt64, into output: inout HubOutput) {
        let due = delayed.filter { $0.due <= now }.sorted { ($0.due, $0.sequence) < ($1.due, $1.sequence) }
        guard !due.isEmpty else { return }
        delayed.removeAll { $0.due <= now }
        for entry in due {
            if observers(of: entry.post.name).contains(entry.process) {
                decide(entry.post, for: entry.process, at: now, into: &output)
            } else {
                output.records.append(record(.droppedNotObserving, to: entry.process, entry.post, at: now))
            }
        }
    }

    private mutating func deliver(_ post: Held, to process: String, at now: UInt64, into output: inout HubOutput) {
        if holding[process] != nil {
            withheld[process, default: []].append(post)
            output.records.append(record(.held, to: process, post, at: now))
            return
        }
        output.deliveries.append(HubDelivery(process: process, name: post.name, poster: post.poster, postedAt: post.postedAt, at: now))
        output.records.append(record(.delivered, to: process, post, at: now))
    }

    private func record(_ kind: HubDecision, to process: String, _ post: Held, at now: UInt64) -> HubRecord {
        HubRecord(kind: kind, process: process, name: post.name, poster: post.poster, postedAt: post.postedAt, at: now)
    }
}
