import Basics
import Synchronization

/// The notification hub the runner owns: agents post and observe through it, and it decides every
/// delivery from what it knows of each process's lifecycle (which the kernel cannot: it queues
/// datagrams for a SIGSTOPped process as if it were running).
///
/// It wraps `HubStateMachine` around one datagram socket served by its own thread. Agents talk to
/// it with `HubNotificationCenter`; the runner tells it about lifecycles and faults:
/// ```swift
/// let hub = try NotifyHub(socketPath: sandbox + "/notify/hub.sock") { record in trace.append(record) }
/// hub.setPolicy(.queue, for: "app")
/// hub.setLifecycle(.active, for: "app")      // before spawning "app", so its observers count
/// // spawn the agent with the hub's socketPath ...
/// hub.setLifecycle(.suspended, for: "app")   // then SIGSTOP it
/// // SIGCONT it, then:
/// hub.setLifecycle(.background, for: "app")  // delivers what was held, by policy
/// hub.close()
/// ```
/// Every call applies its input at once, under one lock, and sends the resulting deliveries before
/// returning, so deliveries follow the order of the inputs. `onRecord` runs under that lock, in
/// order: keep it short and never call back into the hub from it.
public final class NotifyHub: Sendable {
    private struct Core: ~Copyable {
        var machine: HubStateMachine
        /// The socket path each process last talked from.
        var addresses: [String: String] = [:]
        /// Deliveries waiting because a receiver's queue was full, in order, per process.
        var outbox: [String: [[UInt8]]] = [:]
        /// How many deliveries were sent (or queued to be sent) to each process's current socket.
        var delivered: [String: Int] = [:]
    }

    /// The path agents send to.
    public let socketPath: String
    private let socket: DatagramSocket
    private let core: Mutex<Core>
    private let clock: @Sendable () -> UInt64
    private let onRecord: @Sendable (HubRecord) -> Void
    private let loop = Mutex<ReceiveLoop?>(nil)

    /// Binds the hub's socket at `socketPath` and starts its thread.
    ///
    /// - Parameters:
    ///   - socketPath: where agents send; its directory must exist and the path fit `sun_path`.
    ///   - defaultPolicy: for processes given no `setPolicy`.
    ///   - clock: monotonic nanoseconds; inject a manual clock only with care (the thread sleeps on it).
    ///   - onRecord: receives every trace record, in order.
    public init(
        socketPath: String,
        defaultPolicy: DeliveryPolicy = .coalesce,
        clock: @escaping @Sendable () -> UInt64 = MonotonicClock.now,
        onRecord: @escaping @Sendable (HubRecord) -> Void = { _ in }
    ) throws {
        self.socketPath = socketPath
        self.socket = try DatagramSocket(bindingTo: socketPath)
        self.core = Mutex(Core(machine: HubStateMachine(defaultPolicy: defaultPolicy)))
        self.clock = clock
        self.onRecord = onRecord
        let receiveLoop = try ReceiveLoop(
            socket: socket,
            timeout: { [weak self] in self?.pollTimeout() ?? -1 },
            onReadable: { [weak self] in self?.drainSocket() },
            onWake: { [weak self] in self?.serviceTimers() })
        loop.withLock { $0 = receiveLoop }
        receiveLoop.start(name: "notify.hub")
    }

    deinit { close() }

    /// Applies one input now, after every datagram already in the hub's socket.
    ///
    /// An agent that acknowledged a step after posting or observing has its datagram in the
    /// socket by then, so the runner's later call is applied after it, never before.
    public func handle(_ input: HubInput) {
        core.withLock { core in
            receivePending(into: &core)
            apply(input, to: &core)
        }
        loop.withLock { $0?.wake() }
    }

    /// Records `process`'s lifecycle state; resuming delivers what was held for it.
    public func setLifecycle(_ state: HubProcessState, for process: String) {
        handle(.lifecycle(process: process, state: state))
    }

    /// Sets what `process` gets for posts made while it is suspended.
    public func setPolicy(_ policy: DeliveryPolicy, for process: String) {
        handle(.policy(process: process, policy: policy))
    }

    /// Fault: drops every delivery to `process` for `duration` from now.
    public func dropNotifications(to process: String, for duration: Duration) {
        handle(.dropNotifications(to: process, until: clock() + MonotonicClock.nanoseconds(duration)))
    }

    /// Fault: delays every later delivery to `process` by `duration` (zero ends the fault).
    public func delayNotifications(to process: String, by duration: Duration) {
        handle(.delayNotifications(to: process, by: MonotonicClock.nanoseconds(duration)))
    }

    /// Holds back every delivery to `process` until `release(_:)`.
    public func hold(_ process: String) {
        handle(.hold(process: process))
    }

    /// Delivers what `hold(_:)` held for `process`, in order, and stops holding.
    public func release(_ process: String) {
        handle(.release(process: process))
    }

    /// Posts `name` on behalf of `process`, as if the process had posted it.
    public func post(_ name: String, from process: String) {
        handle(.post(from: process, name: name, postedAt: clock()))
    }

    /// How many deliveries the hub has sent to `process` since it last (re)started: what an agent must
    /// have received before the runner may treat everything delivered so far as handled.
    public func deliveredCount(to process: String) -> Int {
        handle(.tick)
        return core.withLock { $0.delivered[process] ?? 0 }
    }

    /// The latest time a delivery held back by `delayNotifications(to:by:)` falls due, after releasing
    /// what is due now (the hub's thread may not have woken yet); nil when none waits.
    public var lastDelayedDue: UInt64? {
        handle(.tick)
        return core.withLock { $0.machine.lastDelayedDue }
    }

    /// The machine's current state, for inspection.
    public var snapshot: HubStateMachine {
        core.withLock { $0.machine }
    }

    /// Stops the thread and removes the socket; later inputs still update the state, sending nothing.
    public func close() {
        let receiveLoop = loop.withLock { loop -> ReceiveLoop? in
            defer { loop = nil }
            return loop
        }
        receiveLoop?.stop()
        socket.close()
    }

    private func drainSocket() {
        core.withLock { core in receivePending(into: &core) }
    }

    /// Applies every datagram waiting in the socket, in arrival order.
    private func receivePending(into core: inout Core) {
        while let (bytes, sender) = socket.receive() {
            receive(bytes, from: sender, into: &core)
        }
    }

    private func receive(_ bytes: [UInt8], from sender: String?, into core: inout Core) {
        guard let message = WireMessage(decoding: bytes) else { return }
        let input: HubInput
        let process: String
        switch message {
        case let .post(poster, name, postedAt):
            (input, process) = (.post(from: poster, name: name, postedAt: postedAt), poster)
        case let .observe(observer, name):
            (input, process) = (.observe(process: observer, name: name), observer)
        case let .unobserve(observer, name):
            (input, process) = (.unobserve(process: observer, name: name), observer)
        case .deliver:
            return
        }
        if let sender { core.addresses[process] = sender }
        apply(input, to: &core)
    }

    private func apply(_ input: HubInput, to core: inout Core) {
        let now = clock()
        var output = core.machine.handle(input, at: now)
        if core.machine.nextDeadline.map({ $0 <= now }) == true {
            output.append(core.machine.handle(.tick, at: now))
        }
        if case let .lifecycle(process, .notRunning) = input {
            core.outbox[process] = nil
            core.delivered[process] = nil
        }
        var records: [HubRecord] = []
        var index = 0
        for record in output.records {
            records.append(record)
            guard record.kind == .delivered else { continue }
            let delivery = output.deliveries[index]
            index += 1
            if send(delivery, with: &core) {
                core.delivered[delivery.process, default: 0] += 1
            } else {
                records.append(HubRecord(
                    kind: .undeliverable, process: delivery.process, name: delivery.name,
                    poster: delivery.poster, postedAt: delivery.postedAt, at: now))
            }
        }
        for record in records { onRecord(record) }
    }

    /// Sends or queues one delivery; false when the receiver has no socket.
    private func send(_ delivery: HubDelivery, with core: inout Core) -> Bool {
        guard let address = core.addresses[delivery.process] else { return false }
        let bytes = WireMessage.deliver(name: delivery.name, poster: delivery.poster, postedAt: delivery.postedAt).encoded
        if core.outbox[delivery.process] != nil {
            core.outbox[delivery.process]?.append(bytes)
            return true
        }
        switch socket.send(bytes, to: address) {
        case .sent:
            return true
        case .full:
            core.outbox[delivery.process] = [bytes]
            return true
        case .noReceiver, .failed:
            return false
        }
    }

    /// Releases due delayed deliveries and retries full queues; runs on the hub thread.
    private func serviceTimers() {
        core.withLock { core in
            let now = clock()
            if core.machine.nextDeadline.map({ $0 <= now }) == true {
                apply(.tick, to: &core)
            }
            for process in core.outbox.keys.sorted() {
                guard let address = core.addresses[process], var pending = core.outbox[process] else { continue }
                while let first = pending.first, socket.send(first, to: address) != .full {
                    pending.removeFirst()
                }
                core.outbox[process] = pending.isEmpty ? nil : pending
            }
        }
    }

    /// Milliseconds the thread may sleep: until the next delayed delivery, 1 while a queue waits.
    private func pollTimeout() -> Int32 {
        core.withLock { core in
            var timeout: Int32 = -1
            if let deadline = core.machine.nextDeadline {
                let now = clock()
                let remaining = deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0
                timeout = Int32(min(remaining, 60_000))
            }
            if !core.outbox.isEmpty { timeout = timeout < 0 ? 1 : min(timeout, 1) }
            return timeout
        }
    }
}
