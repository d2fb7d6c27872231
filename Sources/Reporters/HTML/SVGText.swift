/// Small helpers for writing SVG by hand: coordinates with one decimal, escaped text, tooltips.
enum SVG {
    /// A coordinate with at most one decimal, locale-free.
    static func n(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let integer = Int(tenths / 10)
        let fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return String(integer) }
        return (tenths < 0 && integer == 0 ? "-" : "") + "\(integer).\(fraction)"
    }

    /// A `<title>` element: the hover tooltip of its parent.
    static func title(_ text: String) -> String { "<title>\(Escape.html(text))</title>" }

    /// A text element; `cls` is a CSS class from the report's stylesheet.
    static func text(_ value: String, x: Double, y: Double, cls: String, anchor: String = "start") -> String {
        "<text x=\"\(n(x))\" y=\"\(n(y))\" class=\"\(cls)\"\(anchor == "start" ? "" : " text-anchor=\"\(anchor)\"")>\(Escape.html(value))</text>"
    }

    /// Roughly how wide a label is, for skipping labels that would overlap.
    static func width(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.6 }
}

/// Keeps labels on one row of a lane from overlapping: each placed label occupies an interval.
struct LabelRow {
    private var taken: [(Double, Double)] = []

    /// Places a label of `width` starting at the first free candidate x; returns it, or nil when
    /// every candidate overlaps a label already placed or leaves `bounds`.
    mutating func place(width: Double, candidates: [Double], bounds: ClosedRange<Double>) -> Double? {
        for start in candidates {
            let end = start + width
            guard bounds.contains(start), bounds.contains(end) else { continue }
            if taken.allSatisfy({ end + 4 <= $0.0 || start >= $0.1 + 4 }) {
                taken.append((start, end))
                return start
            }
        }
        return nil
    }
}
