import Checkers
import Foundation

/// Latency over the run for one writer → reader pair: each save a point at its commit time (x) and its
/// latency (y, log scale), refreshed and first shown in two colours, and a red cross along the top for
/// each save the reader never refreshed into its context. A trend or a burst the histogram hides shows
/// here.
enum LatencyScatterSVG {
    static func render(title: String, propagations: [Propagation], origin: UInt64, span: UInt64) -> String {
        let width = 400.0, left = 52.0, right = 392.0, top = 30.0, bottom = 128.0, height = 170.0
        var svg = "<svg class=\"scatter\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVG.n(width)) \(SVG.n(height))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(height))\" role=\"img\" aria-label=\"\(Escape.html(title))\">"
        svg += SVG.text(title, x: 4, y: 16, cls: "hist-title")
        let refreshed = propagations.compactMap { p in p.refreshedAt.map { (p, $0 &- p.committedAt) } }
        let shown = propagations.compactMap { p in p.seenAt.map { (p, $0 &- p.committedAt) } }
        let never = propagations.filter { $0.refreshedAt == nil }
        let values = (refreshed + shown).map { Swift.max($0.1, 1_000) }
        guard let low = values.min(), let high = values.max() else {
            svg += SVG.text(never.isEmpty ? "no samples" : "never refreshed (\(never.count) save\(never.count == 1 ? "" : "s"))", x: 4, y: 42, cls: "hist-empty")
            return svg + "</svg>"
        }
        let logLow = log10(Double(low)) - 0.2, logHigh = Swift.max(log10(Double(high)) + 0.2, logLow + 1)
        func x(_ t: UInt64) -> Double { left + Double(Swift.min(t &- origin, span)) / Double(Swift.max(span, 1)) * (right - left) }
        func y(_ nanos: UInt64) -> Double {
            bottom - (log10(Double(Swift.max(nanos, 1_000))) - logLow) / (logHigh - logLow) * (bottom - top)
        }
        svg += "<line x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(bottom))\" x2=\"\(SVG.n(right))\" y2=\"\(SVG.n(bottom))\" class=\"hist-axis\"/>"
        svg += "<line x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(top))\" x2=\"\(SVG.n(left))\" y2=\"\(SVG.n(bottom))\" class=\"hist-axis\"/>"
        svg += SVG.text(DurationText.format(low), x: left - 4, y: y(low) + 4, cls: "bar-label", anchor: "end")
        if high > low { svg += SVG.text(DurationText.format(high), x: left - 4, y: y(high) + 4, cls: "bar-label", anchor: "end") }
        svg += SVG.text("0", x: left, y: bottom + 13, cls: "bar-label")
        svg += SVG.text(DurationText.format(span), x: right, y: bottom + 13, cls: "bar-label", anchor: "end")
        // A huge run is sampled evenly (the counts below and the tables cover every save).
        let limit = 1_000
        for (p, latency) in TimelineSVG.sampled(refreshed, limit) {
            svg += "<circle cx=\"\(SVG.n(x(p.committedAt)))\" cy=\"\(SVG.n(y(latency)))\" r=\"2.5\" class=\"dot-refreshed\">\(SVG.title("\(p.object): refreshed \(DurationText.format(latency)) after its commit at \(DurationText.format(p.committedAt &- origin))"))</circle>"
        }
        for (p, latency) in TimelineSVG.sampled(shown, limit) {
            svg += "<rect x=\"\(SVG.n(x(p.committedAt) - 2))\" y=\"\(SVG.n(y(latency) - 2))\" width=\"4\" height=\"4\" class=\"dot-shown\">\(SVG.title("\(p.object): first shown \(DurationText.format(latency)) after its commit at \(DurationText.format(p.committedAt &- origin))"))</rect>"
        }
        for p in TimelineSVG.sampled(never, limit) {
            let px = x(p.committedAt), py = top - 6
            svg += "<path d=\"M\(SVG.n(px - 3)),\(SVG.n(py - 3)) L\(SVG.n(px + 3)),\(SVG.n(py + 3)) M\(SVG.n(px + 3)),\(SVG.n(py - 3)) L\(SVG.n(px - 3)),\(SVG.n(py + 3))\" class=\"dot-never\">\(SVG.title("\(p.object): committed at \(DurationText.format(p.committedAt &- origin)), never refreshed into \(p.reader)"))</path>"
        }
        var note = "● refreshed (\(refreshed.count))  ■ first shown (\(shown.count))"
        if !never.isEmpty { note += "  × never refreshed (\(never.count))" }
        svg += SVG.text(note, x: 4, y: height - 10, cls: "hist-note")
        return svg + "</svg>"
    }
}
