// This file imports Trace alone, so its names resolve unambiguously; the rest of the runner also
// imports ScenarioModel, which has types of the same names.
import Trace

/// The trace's latency budget (nanoseconds), as opposed to the scenario's (durations).
typealias TraceLatencyBudget = LatencyBudget
/// The trace's expected outcome.
typealias TraceExpectedOutcome = ExpectedOutcome
