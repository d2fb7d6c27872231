import Checkers
import Foundation

/// The strategies of a comparison side by side: per strategy, commit → refreshed p99 and commit →
/// first shown p99 as bars on one logarithmic scale (latencies span microseconds to seconds), the
/// saves never shown, and the anomalies found.
enum CompareChartSVG {
    static func render(_ rows: [CompareMatrix.Row]) -> String {
        let width = 1240.0, labelWidth = 340.0, barLeft = 350.0, barRight = 860.0, rowHeight = 46.0, top = 30.0
        let height = top + Double(rows.count) * rowHeight + 26
        let values = rows.flatMap { [$0.p99, $0.shownP99] }.compactMap { $0 }.filter { $0 > 0 }
        let low = log10(Double(values.min() ?? 1_000)) - 0.3, high = log10(Double(values.max() ?? 1_000_000)) + 0.1
        func x(_ nanos: UInt64) -> Double {
            let span = Swift.max(high - low, 0.5)
            return barLeft + (log10(Double(Swift.max(nanos, 1))) - low) / span * (barRight - barLeft)
        }
        var svg = "<svg class=\"compare-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVG.n(width)) \(SVG.n(height))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(height))\" role=\"img\" aria-label=\"Strategies side by side: latency and anomalies\">"
        svg += SVG.text("refreshed p99", x: barLeft + 14, y: 16, cls: "chart-key")
        svg += "<rect x=\"\(SVG.n(barLeft))\" y=\"8\" width=\"10\" height=\"10\" class=\"bar\"/>"
        svg += "<rect x=\"\(SVG.n(barLeft + 120))\" y=\"8\" width=\"10\" height=\"10\" class=\"bar-shown\"/>"
        svg += SVG.text("first shown p99 (log scale)", x: barLeft + 134, y: 16, cls: "chart-key")
        svg += SVG.text("anomalies", x: barRight + 60, y: 16, cls: "chart-key")
        for (i, row) in rows.enumerated() {
            let y = top + Double(i) * rowHeight
            svg += "<g>" + SVG.text(TimelineSVG.clip(row.label, 46), x: labelWidth, y: y + 22, cls: "chart-label", anchor: "end")
            for (value, cls, dy) in [(row.p99, "bar", 4.0), (row.shownP99, "bar-shown", 22.0)] {
                if let value {
                    let end = Swift.max(x(value), barLeft + 2)
                    svg += "<rect x=\"\(SVG.n(barLeft))\" y=\"\(SVG.n(y + dy))\" width=\"\(SVG.n(end - barLeft))\" height=\"14\" class=\"\(cls)\"/>"
                    svg += SVG.text(DurationText.format(value), x: end + 4, y: y + dy + 11, cls: "bar-value")
                } else {
                    svg += SVG.text(row.neverShown > 0 ? "never (\(row.neverShown) save\(row.neverShown == 1 ? "" : "s"))" : "–",
                                    x: barLeft + 2, y: y + dy + 11, cls: row.neverShown > 0 ? "bar-never" : "bar-value")
                }
            }
            let clean = row.anomalies == "none"
            svg += SVG.text(clean ? "no anomalies" : TimelineSVG.clip(row.anomalies, 44), x: barRight + 60, y: y + 22,
                            cls: clean ? "chart-ok" : "chart-bad")
            svg += SVG.title("\(row.label): refreshed p99 \(row.p99.map(DurationText.format) ?? "–"), first shown p99 \(row.shownP99.map(DurationText.format) ?? "–"), anomalies: \(row.anomalies)")
            svg += "</g>"
        }
        return svg + "</svg>\n"
    }
}
