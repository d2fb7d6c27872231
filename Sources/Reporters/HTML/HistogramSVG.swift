import Checkers

/// A latency histogram as SVG bars: one bar per 1-2-5 bucket, its count above it, p50 and p99 noted.
enum HistogramSVG {
    static func render(title: String, summary: LatencySummary?, buckets: [LatencyBucket], unseen: Int) -> String {
        let width = 400.0, left = 34.0, bottom = 128.0, top = 30.0
        let empty = summary == nil || buckets.isEmpty
        let height = empty ? 64.0 : 170.0
        var svg = "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVG.n(width)) \(SVG.n(height))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(height))\" role=\"img\" aria-label=\"\(Escape.html(title))\">"
        svg += SVG.text(title, x: 4, y: 16, cls: "hist-title")
        guard let summary, !buckets.isEmpty else {
            svg += SVG.text(unseen > 0 ? "never shown (\(unseen) save\(unseen == 1 ? "" : "s"))" : "no samples", x: 4, y: 42, cls: "hist-empty")
            return svg + "</svg>"
        }
        // Trim empty buckets at the low end so the bars use the width.
        let firstUsed = buckets.firstIndex { $0.count > 0 } ?? 0
        let shown = Array(buckets[firstUsed...])
        let peak = Double(shown.map(\.count).max() ?? 1)
        let slot = (width - left - 6) / Double(shown.count)
        let barWidth = Swift.min(56, Swift.max(2, slot - 3))
        svg += "<line x1=\"\(SVG.n(left))\" y1=\"\(SVG.n(bottom))\" x2=\"\(SVG.n(width - 4))\" y2=\"\(SVG.n(bottom))\" class=\"hist-axis\"/>"
        for (i, bucket) in shown.enumerated() {
            let h = peak == 0 ? 0 : Double(bucket.count) / peak * (bottom - top)
            let x = left + Double(i) * slot
            svg += "<g><rect x=\"\(SVG.n(x))\" y=\"\(SVG.n(bottom - h))\" width=\"\(SVG.n(barWidth))\" height=\"\(SVG.n(Swift.max(h, bucket.count > 0 ? 1 : 0)))\" class=\"bar\"/>"
            if bucket.count > 0 {
                svg += SVG.text("\(bucket.count)", x: x + barWidth / 2, y: bottom - h - 3, cls: "bar-count", anchor: "middle")
            }
            svg += SVG.title("\(bucket.count) saves shown in \(DurationText.format(bucket.lower)) – \(DurationText.format(bucket.upper))") + "</g>"
            if shown.count <= 10 || i % 2 == 0 {
                svg += SVG.text("<\(DurationText.format(bucket.upper))", x: x + barWidth / 2, y: bottom + 13, cls: "bar-label", anchor: "middle")
            }
        }
        var note = "p50 \(DurationText.format(summary.p50)) · p99 \(DurationText.format(summary.p99)) · max \(DurationText.format(summary.max)) · n=\(summary.count)"
        if unseen > 0 { note += " · never shown: \(unseen)" }
        svg += SVG.text(note, x: 4, y: height - 10, cls: "hist-note")
        return svg + "</svg>"
    }
}
