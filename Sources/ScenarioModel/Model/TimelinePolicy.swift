/// When the system reloads a widget's timeline by itself (`timeline-policy`), as the
/// `TimelineReloadPolicy` of the timeline its provider returns says: after each reload, the next one is due
/// that long later on the simulated clock, and counts against the widget's `reload-budget`.
///
/// ```yaml
/// widget: { role: widget, timeline-policy: { after: 15m } }   # .after(now + 15 minutes)
/// widget: { role: widget, timeline-policy: { at-end: 1h } }   # .atEnd, the last entry an hour on
/// widget: { role: widget, timeline-policy: never }            # .never, the default
/// ```
public enum TimelinePolicy: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `.never`: the widget reloads only when an app asks (`reload-timelines`) or its button ran an intent.
    case never
    /// `.after(date)`: the system reloads it this long after each reload.
    case after(Duration)
    /// `.atEnd`: the system reloads it once its timeline's last entry, this long after the reload, is shown.
    case atEnd(Duration)

    /// How long after a reload the next one is due; nil for `never`.
    public var interval: Duration? {
        switch self {
        case .never: nil
        case .after(let duration), .atEnd(let duration): duration
        }
    }

    /// `never`, `{ after: 15m }` or `{ at-end: 1h }`, as a file writes it.
    public var description: String {
        switch self {
        case .never: "never"
        case .after(let duration): "{ after: \(duration) }"
        case .atEnd(let duration): "{ at-end: \(duration) }"
        }
    }
}
