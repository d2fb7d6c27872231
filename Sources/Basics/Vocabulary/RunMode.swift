/// How a run is executed.
public enum RunMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Agents act concurrently on the machine's clock; notifications travel through the hub's
    /// sockets. Measures real latency and real lock races.
    case realTime = "real-time"
    /// The runner owns every source of nondeterminism: one agent acts at a time, in an order drawn
    /// from the seed; notifications are delivered at points the seed chooses; time is virtual. The same
    /// file, variant and seed give the same trace.
    case deterministic
}
