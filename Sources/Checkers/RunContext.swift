import Basics
import Trace

/// What every checker needs to know about the run besides the events: processes, stores, steps,
/// the clock's origin, and how to render a time for a sentence.
struct RunContext {
    let info: RunInfo
    /// The `t` of the first event: times in explanations are relative to it.
    let origin: UInt64
    private let storeOfProcess: [String: String]
    private let steps: [Int: StepInfo]

    init(info: RunInfo, origin: UInt64) {
        self.info = info
        self.origin = origin
        var stores: [String: String] = [:]
        for process in info.processes { stores[process.name] = process.store }
        storeOfProcess = stores
        var steps: [Int: StepInfo] = [:]
        for step in info.steps { steps[step.index] = step }
        self.steps = steps
    }

    /// The store `process` reads (TraceProcess.store), or nil for the harness and unknown names.
    func store(of process: String) -> String? { storeOfProcess[process] }

    /// Every process (by name) that reads `store`.
    func readers(of store: String) -> [String] {
        info.processes.filter { $0.store == store }.map(\.name)
    }

    func step(_ index: Int?) -> StepInfo? { index.flatMap { steps[$0] } }

    /// `file:line` of a step.
    func location(_ index: Int?) -> String? { step(index)?.location.fileAndLine }

    /// A time as explanations print it, relative to the run's first event: `412 ms`.
    func at(_ t: UInt64) -> String { DurationText.format(t >= origin ? t - origin : 0) }

    /// An anomaly at `step`, with its location filled in.
    func anomaly(
        _ kind: AnomalyKind, process: String, step: Int?, t: UInt64, object: String? = nil,
        property: String? = nil, seen: String? = nil, expected: String? = nil,
        cause: CommitReference? = nil, explanation: String
    ) -> Anomaly {
        Anomaly(
            kind: kind, process: process, step: step, location: location(step), object: object,
            property: property, seen: seen, expected: expected, t: t, cause: cause,
            explanation: explanation)
    }
}
