import Foundation
import ScenarioModel
import Trace

extension ScenarioModel.Duration {
    /// The duration in nanoseconds, for the monotonic clock (never negative).
    var nanos: UInt64 { UInt64(max(0, nanoseconds)) }
}
