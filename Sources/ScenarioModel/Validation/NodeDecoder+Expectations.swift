import Basics

// What a run must show and stay within (`expect:`, `limits:`, `latency:`, at the top and in a variant), each
// read from its node: what it needs of the scenario (whether a step is a workload, which processes exist)
// comes in as an argument.
extension NodeDecoder {
    /// `pass`, a list of anomaly names, one anomaly name, or counts (`{ stale-read: 1, busy: 0 }`).
    /// `process` reads the name of a process a count is given for: nil when it names no declared process
    /// (and says so). With `hasWorkload`, exact counts are refused: a workload's depend on the machine's speed.
    func expectation(_ node: YAMLNode, hasWorkload: Bool, process: (YAMLNode) -> String?) -> Expectation? {
        if let word = node.scalar, !node.isNull {
            if word == "pass" { return .pass }
            return self.keyword(node, AnomalyKind.self, "anomaly").map { .anomalies([$0]) }
        }
        if node.pairs != nil { return counts(node, hasWorkload: hasWorkload, process: process) }
        guard let items = node.items else {
            self.error("expected expect: pass, a list of anomalies like [stale-read], or counts like "
                + "{ stale-read: 1, busy: 0 }, but found \(node.shortDescription).", at: node)
            return nil
        }
        guard !items.isEmpty else {
            self.error("an empty expect list would match any run; write expect: pass to expect no anomaly.", at: node)
            return nil
        }
        var names: [AnomalyKind] = []
        var valid = true
        for item in items {
            if item.scalar == "pass" {
                self.error("pass means no anomaly, so it cannot be listed with anomalies; write expect: pass "
                    + "on its own, or list only anomalies.", at: item)
                valid = false
            } else if let name = self.keyword(item, AnomalyKind.self, "anomaly") {
                if !names.contains(name) { names.append(name) }
            } else {
                valid = false
            }
        }
        return valid ? .anomalies(names) : nil
    }

    /// `{ stale-read: 1, busy: 0, missed-insert: 1+ }`: exactly n of a kind (0 forbids it), or n or more.
    private func counts(_ node: YAMLNode, hasWorkload: Bool, process: (YAMLNode) -> String?) -> Expectation? {
        guard let map = MappingReader(node, "anomaly counts like { stale-read: 1, busy: 0 }", self) else { return nil }
        guard !map.pairs.isEmpty else {
            self.error("empty counts would match any run; name a kind and its count, like { stale-read: 1 }, "
                + "or write expect: pass.", at: node)
            return nil
        }
        var counts: [AnomalyCount] = []
        var valid = true
        for pair in map.pairs {
            guard let kind = self.keyword(pair.key, AnomalyKind.self, "anomaly") else {
                valid = false
                continue
            }
            // A kind named twice is a duplicate key, which the YAML layer already reports. Its value is a
            // count, or a mapping of processes to counts (`busy: { share: 1, app: 0 }`).
            var entries: [(YAMLNode, String?)] = [(pair.value, nil)]
            if pair.value.pairs != nil {
                guard let perProcess = MappingReader(pair.value, "counts per process like { share: 1, app: 0 }", self),
                      !perProcess.pairs.isEmpty else {
                    self.error("name a process and its count, like \(kind.rawValue): { share: 1 }.", at: pair.value)
                    valid = false
                    continue
                }
                entries = perProcess.pairs.map { ($0.value, process($0.key)) }
                if entries.contains(where: { $0.1 == nil }) {
                    valid = false
                    continue
                }
            }
            for (value, process) in entries {
                guard let bound = value.scalar, !value.isNull, let count = AnomalyCount(kind: kind, bound: bound, process: process) else {
                    self.error("the count of \(kind.rawValue)\(process.map { " in \($0)" } ?? "") must be a whole number from 0 to "
                        + "1000000 (exactly that many; 0 forbids it) or one followed by + (that many or more), like 1+, "
                        + (process == nil ? "or counts per process like { share: 1, app: 0 }, " : "")
                        + "but found \(value.shortDescription).", at: value)
                    valid = false
                    continue
                }
                // How many anomalies a workload's interleaving makes depends on how fast the machine runs (a
                // loaded one interleaves more): an exact number of them would flake.
                if hasWorkload, count.atLeast > 0, count.atMost != nil {
                    self.error("a workload's \(kind.rawValue) count depends on how fast the machine runs, so an exact \(count.atLeast) "
                        + "would pass on one machine and fail on another; write \(count.atLeast)+ (at least that many), or 0 to "
                        + "forbid it.", at: value)
                    valid = false
                    continue
                }
                counts.append(count)
            }
        }
        return valid ? .counts(counts) : nil
    }

    /// `{ history-transactions: 1000, history-changes: 10000, wal: 4MB, store: 50MB }` (any of them).
    func growthLimits(_ node: YAMLNode) -> GrowthLimits? {
        guard let map = MappingReader(node, "limits like { history-transactions: 1000, wal: 4MB }", self) else { return nil }
        map.rejectUnknownKeys(GrowthLimits.keys, in: "limits")
        if map.pairs.isEmpty {
            self.error("limits sets no limit; add one, like { history-transactions: 1000 } or { wal: 4MB }.", at: node)
            return nil
        }
        var valid = true
        func count(_ key: String) -> Int64? {
            guard let node = map[key] else { return nil }
            guard let value = self.int(node, "the \(key) limit", in: 0...Limits.objects * 100) else { valid = false; return nil }
            return Int64(value)
        }
        func size(_ key: String) -> Int64? {
            guard let node = map[key] else { return nil }
            guard let text = node.scalar, !node.isNull, let bytes = ByteSize.parse(text) else {
                self.error("expected a size like 4MB, 512KB or 1GB (at most 1024GB) for the \(key) limit, but found "
                    + "\(node.shortDescription).", at: node)
                valid = false
                return nil
            }
            return bytes
        }
        let limits = GrowthLimits(historyTransactions: count("history-transactions"), historyChanges: count("history-changes"),
                                  walBytes: size("wal"), storeBytes: size("store"))
        return valid ? limits : nil
    }

    /// `{ p50: 5ms, p90: 20ms, p99: 50ms, max: 200ms }` (any of them).
    func latencyBudget(_ node: YAMLNode) -> LatencyBudget? {
        guard let map = MappingReader(node, "a latency budget like { p99: 50ms }", self) else { return nil }
        map.rejectUnknownKeys(LatencyBudget.keys, in: "the latency budget")
        if map.pairs.isEmpty {
            self.error("the latency budget sets no limit; add one, like { p99: 50ms }.", at: node)
            return nil
        }
        func limit(_ key: String) -> UInt64? { map[key].flatMap { self.duration($0, "the \(key) limit") }.map(\.nanoseconds).map { UInt64(max(0, $0)) } }
        return LatencyBudget(p50: limit("p50"), p90: limit("p90"), p99: limit("p99"), max: limit("max"))
    }
}
