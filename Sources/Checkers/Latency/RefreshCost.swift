/// How much time a process spent inside its refreshes (`refreshStarted` .. `refreshEnded`).
public struct RefreshCost: Sendable, Hashable, Codable {
    public var process: String
    public var count: Int
    public var totalNanos: UInt64

    public init(process: String, count: Int, totalNanos: UInt64) {
        self.process = process
        self.count = count
        self.totalNanos = totalNanos
    }
}

/// Sums refresh time per process in one pass.
struct RefreshCostMeter {
    private var started: [String: UInt64] = [:]
    private var costs: [String: RefreshCost] = [:]

    mutating func started(_ process: String, t: UInt64) { started[process] = t }

    mutating func ended(_ process: String, t: UInt64) {
        let start = started.removeValue(forKey: process) ?? t
        var cost = costs[process] ?? RefreshCost(process: process, count: 0, totalNanos: 0)
        cost.count += 1
        cost.totalNanos += t >= start ? t - start : 0
        costs[process] = cost
    }

    /// Per process, by name.
    var result: [RefreshCost] { costs.values.sorted { $0.process < $1.process } }
}

extension RefreshCostMeter: TraceJudge {
    static var sees: EventKinds { [.refreshStarted, .refreshEnded] }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        if case .refreshStarted = event.kind { started(event.process, t: event.t) } else { ended(event.process, t: event.t) }
    }

    mutating func finish(into findings: inout CheckFindings) {
        findings.refreshCosts = result
    }
}
