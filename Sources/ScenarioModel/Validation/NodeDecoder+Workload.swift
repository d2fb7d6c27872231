import Basics

/// The values of the control steps that name no process: a clock advance, a workload's mix and rate.
extension NodeDecoder {
    /// `clock: { advance: 8d }`.
    func clockAdvance(_ node: YAMLNode) -> Step? {
        guard let map = MappingReader(node, "the clock step, like clock: { advance: 8d }", self) else { return nil }
        map.rejectUnknownKeys(["advance"], in: "the clock step", controlWord: "clock")
        return map.required("advance", in: "the clock step", example: "clock: { advance: 8d }")
            .flatMap { duration($0, "advance", limit: Limits.simulatedTime) }
            .map { Step.advanceClock(by: $0) }
    }

    /// A workload's `mix:`, like `{ insert: 1, update: 3, delete: 1, read: 5 }`: not every weight 0.
    func workloadMix(_ node: YAMLNode) -> WorkloadMix? {
        guard let map = MappingReader(node, "the workload's mix, like { insert: 1, update: 3, delete: 1, read: 5 }",
                                      self) else { return nil }
        map.rejectUnknownKeys(["insert", "update", "delete", "read"], in: "the mix")
        func weight(_ key: String) -> Int { map[key].flatMap { int($0, "the \(key) weight", in: 0...Limits.mixWeight) } ?? 0 }
        let mix = WorkloadMix(insert: weight("insert"), update: weight("update"), delete: weight("delete"), read: weight("read"))
        if mix.total == 0 {
            error("the mix gives every operation weight 0; give at least one a positive weight.", at: node)
            return nil
        }
        return mix
    }

    /// `500/s`, `20/100ms`, or a plain number of operations per second.
    func workloadRate(_ node: YAMLNode) -> Double? {
        if let text = node.scalar, !node.isNull {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            if let count = Double(parts[0]), count > 0, count.isFinite {
                var rate: Double?
                if parts.count == 1 { rate = count }
                if parts.count == 2 {
                    let period = parts[1].first?.isNumber == true ? parts[1] : "1" + parts[1]
                    if let duration = try? Duration(parsing: period), duration > .zero {
                        rate = count / duration.seconds
                    }
                }
                if let rate {
                    guard rate <= Limits.rate else {
                        error("the rate \(text) is more than \(Int(Limits.rate)) operations a second, the most "
                            + "a workload runs; lower it.", at: node)
                        return nil
                    }
                    return rate
                }
            }
        }
        error("expected a rate like 500/s or 20/100ms, but found \(node.shortDescription).", at: node)
        return nil
    }
}
