import Basics
import Trace

/// One random operation of a `workload` step.
public struct WorkloadOperation: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case insert, update, delete, read }

    /// When to start it, relative to the workload's start.
    public var offsetNanos: UInt64
    public var process: String
    public var kind: Kind
    public var id: String
    public var values: [String: Value]
}

/// Draws a workload's operations from its seed, as the contract says: inserts take fresh ids
/// (`k1`, `k2`, … up to `keys`, skipping ids live in the store, as an earlier workload left them), updates, deletes and reads pick ids already committed, and each
/// write saves at once. Which ids are committed is only known as the run goes, so the generator is
/// asked for one operation at a time with the committed ids of that moment.
public struct WorkloadGenerator: Sendable {
    public struct Mix: Sendable, Hashable {
        public var insert: Int
        public var update: Int
        public var delete: Int
        public var read: Int

        public init(insert: Int, update: Int, delete: Int, read: Int) {
            self.insert = insert
            self.update = update
            self.delete = delete
            self.read = read
        }

        var total: Int { insert + update + delete + read }
    }

    public let processes: [String]
    public let mix: Mix
    public let keys: Int
    public let intervalNanos: UInt64
    public let count: Int
    /// The attribute an update writes, and how to make its value.
    public let attribute: (name: String, type: AttributeType)?
    private var random: SeededRandom
    private var issued = 0
    private var nextFresh = 1
    /// Ids another workload running beside this one inserts: never this one's fresh ids.
    public var reserved: Set<String> = []

    /// - Parameters:
    ///   - rate: operations per second across all processes.
    ///   - durationNanos: how long the workload runs; `rate * duration` operations in all.
    ///   - attribute: a non-optional attribute of the entity that updates and inserts set.
    public init(processes: [String], mix: Mix, rate: Double, durationNanos: UInt64, keys: Int, attribute: (name: String, type: AttributeType)?, seed: UInt64) {
        self.processes = processes
        self.mix = mix
        self.keys = max(1, keys)
        let perSecond = max(rate, 1)
        intervalNanos = UInt64(1_000_000_000 / perSecond)
        count = max(1, Int((Double(durationNanos) / 1_000_000_000 * perSecond).rounded()))
        self.attribute = attribute
        random = SeededRandom(seed: seed)
    }

    /// The next operation given the ids committed and not deleted now (sorted for determinism),
    /// or nil when the workload is done. An operation that needs a committed id when there is none,
    /// or a fresh id when all `keys` are used, becomes an insert or an update instead; when every key
    /// is used and none is committed, a deleted key is inserted again.
    public mutating func next(committed: [String]) -> WorkloadOperation? {
        guard issued < count, !processes.isEmpty, mix.total > 0 else { return nil }
        // Fresh ids are ones no live object has: a workload after another one (or after steps that
        // inserted k1, ...) goes on past the ids they committed, instead of inserting them again.
        if nextFresh <= keys, !committed.isEmpty || !reserved.isEmpty {
            let live = Set(committed)
            while nextFresh <= keys && (live.contains("k\(nextFresh)") || reserved.contains("k\(nextFresh)")) { nextFresh += 1 }
        }
        let offset = UInt64(issued) * intervalNanos
        issued += 1
        let process = processes[Int(random.next() % UInt64(processes.count))]
        var kind = drawKind()
        if kind != .insert && committed.isEmpty { kind = .insert }
        if kind == .insert && nextFresh > keys && !committed.isEmpty { kind = .update }
        let id: String
        switch kind {
        case .insert where nextFresh > keys:
            // Every key is used and every one deleted: insert the first deleted key again.
            let live = Set(committed)
            id = (1...keys).lazy.map { "k\($0)" }.first { !live.contains($0) } ?? "k1"
        case .insert:
            id = "k\(nextFresh)"
            nextFresh += 1
        case .update, .delete, .read:
            id = committed.isEmpty ? "k1" : committed[Int(random.next() % UInt64(committed.count))]
        }
        var values: [String: Value] = [:]
        if let attribute, kind == .insert || kind == .update {
            values[attribute.name] = value(for: attribute.type, sequence: issued)
        }
        return WorkloadOperation(offsetNanos: offset, process: process, kind: kind, id: id, values: values)
    }

    private mutating func drawKind() -> WorkloadOperation.Kind {
        var roll = Int(random.next() % UInt64(mix.total))
        if roll < mix.insert { return .insert }
        roll -= mix.insert
        if roll < mix.update { return .update }
        roll -= mix.update
        if roll < mix.delete { return .delete }
        return .read
    }

    /// A value unique to this operation, so every committed version is distinguishable.
    private func value(for type: AttributeType, sequence: Int) -> Value {
        switch type {
        case .int: .int(Int64(sequence))
        case .double: .double(Double(sequence))
        case .bool: .bool(sequence % 2 == 0)
        case .string, .date, .uuid: .string("w\(sequence)")
        }
    }
}
