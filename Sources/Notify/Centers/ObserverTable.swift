import Synchronization

/// The handlers one notification center has registered, by name, with a count per name so the
/// center registers a name with the transport once and unregisters it with the last handler.
final class ObserverTable: Sendable {
    private struct Entry {
        var name: String
        var handler: @Sendable (NotificationDelivery) -> Void
    }

    private struct State {
        var nextIdentifier: UInt64 = 1
        var entries: [UInt64: Entry] = [:]
        var order: [UInt64] = []
        var counts: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Adds a handler; `isFirst` is true when no other handler observed `name` before.
    func add(
        _ name: String, handler: @escaping @Sendable (NotificationDelivery) -> Void
    ) -> (observer: NotificationObserver, isFirst: Bool) {
        state.withLock { state in
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            state.entries[identifier] = Entry(name: name, handler: handler)
            state.order.append(identifier)
            state.counts[name, default: 0] += 1
            return (NotificationObserver(identifier: identifier, name: name), state.counts[name] == 1)
        }
    }

    /// Removes a handler; `wasLast` is true when no handler observes its name any more.
    /// Nil when the observer was already removed.
    func remove(_ observer: NotificationObserver) -> (name: String, wasLast: Bool)? {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: observer.identifier) else { return nil }
            state.order.removeAll { $0 == observer.identifier }
            let remaining = (state.counts[entry.name] ?? 1) - 1
            state.counts[entry.name] = remaining == 0 ? nil : remaining
            return (entry.name, remaining == 0)
        }
    }

    /// Removes every handler and returns the names that were observed.
    func removeAll() -> [String] {
        state.withLock { state in
            let names = Array(state.counts.keys)
            state = State(nextIdentifier: state.nextIdentifier)
            return names
        }
    }

    /// The names observed now.
    var names: [String] { state.withLock { Array($0.counts.keys) } }

    /// Calls every handler of `delivery.name`, in registration order, outside the lock.
    func dispatch(_ delivery: NotificationDelivery) {
        let handlers = state.withLock { state in
            state.order.compactMap { state.entries[$0] }.filter { $0.name == delivery.name }.map(\.handler)
        }
        for handler in handlers { handler(delivery) }
    }
}
