import Basics
import Checkers

/// A stretch of a run, in nanoseconds from its origin, that a timeline draws across its whole plot.
/// A long run squeezes the few milliseconds a bug takes into a sliver of the full timeline; each anomaly
/// gets a close-up from the commit it missed to where it was found (`focus(on:)`).
struct TimelineWindow: Equatable {
    var start: UInt64
    var end: UInt64
    /// The anomalies (0-based, in the run's order) this window was made for.
    var anomalies: [Int] = []

    /// The id of the window's clip path: unique within a page.
    var clipID: String { "focus-\(start)-\(end)" }

    /// At most `limit` close-ups of the run's anomalies: each spans an anomaly and the commit it missed,
    /// with a third of that on either side (at least a fortieth of the run); overlapping ones merge, and
    /// one that would cover half the run or more is left out, as the full timeline already shows it.
    static func focus(on result: CheckResult, span: UInt64, limit: Int = 3) -> [TimelineWindow] {
        var windows: [TimelineWindow] = []
        for (i, anomaly) in result.anomalies.prefix(TimelineSVG.maxAnomalies).enumerated() {
            let at = result.timelineOffset(of: anomaly)
            let from = anomaly.cause.map { result.offset($0.t) } ?? at
            let low = Swift.min(from, at), high = Swift.max(from, at)
            let pad = Swift.max((high - low) / 3, span / 40, 1_000)
            let window = TimelineWindow(start: low.subtractingClamped(pad), end: Swift.min(high.addingClamped(pad), span), anomalies: [i])
            if let last = windows.indices.last(where: { windows[$0].end >= window.start && windows[$0].start <= window.end }) {
                windows[last].start = Swift.min(windows[last].start, window.start)
                windows[last].end = Swift.max(windows[last].end, window.end)
                windows[last].anomalies.append(i)
            } else {
                windows.append(window)
            }
        }
        return Array(windows.filter { ($0.end - $0.start).multipliedClamped(by: 2) < span && $0.end > $0.start }.prefix(limit))
    }
}
