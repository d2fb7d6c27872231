import Basics

/// Where the deterministic mode's choices come from (`schedule:` at the top of a file).
public enum ScheduleSource: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// From the run's seed: when a process handles the notifications waiting for it (before its next step
    /// at the latest), and in what order the children of a `parallel` step run. The default.
    case seeded
    /// None: notifications are handled where `deliver` steps say, else before the receiver's next step, and
    /// `parallel` children run in the order written. What `explore` writes into its counterexamples, so
    /// that the file replays its schedule with nothing left to chance. Real time ignores it.
    case asWritten = "as-written"
}
