/// A step as one process ran it: anomalies found there explain a failed check of that step.
struct StepKey: Hashable {
    var process: String
    var step: Int?
}
