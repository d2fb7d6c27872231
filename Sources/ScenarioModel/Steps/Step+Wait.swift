extension Step {
    /// The longest this step waits on the real clock by itself, in microseconds: a `sleep`, a check's
    /// `within` (what it may take when the check never holds) and a workload's `duration`; 0 for any other.
    /// What a `parallel`, a `push` or a reload waits is its children's, which whoever knows them adds up:
    /// validation from the steps written, the run's plan with the reloads the system runs on its own.
    public var ownRealClockWait: Int64 {
        switch self {
        case .sleep(let duration): duration.microseconds
        case .read(_, _, .within(let duration)), .count(_, _, _, .within(let duration)), .state(_, _, .within(let duration)),
             .results(_, _, .within(let duration)):
            duration.microseconds
        case .workload(let workload): workload.duration.microseconds
        default: 0
        }
    }

    /// `values` added up, saturating at `Int64.max`.
    public static func totalWait(_ values: [Int64]) -> Int64 {
        values.reduce(0) { total, value in
            let (result, overflow) = total.addingReportingOverflow(value)
            return overflow ? .max : result
        }
    }
}
