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

    /// A label placed by a `LabelBoard`: its text at the start of its box's baseline.
    static func label(_ value: String, at point: LabelBoard.Point, style: LabelStyle) -> String {
        text(value, x: point.x, y: point.y, cls: style.rawValue)
    }
}

/// The timeline's kinds of label, named by their CSS class, with the font metrics their boxes are
/// estimated from (`HTMLStyle` sets the same sizes).
enum LabelStyle: String, CaseIterable {
    case step = "step-label", save = "save-label", missed = "missed-label", anomaly = "anomaly-label"
    case anomalyMore = "anomaly-more", band = "band-label", retry = "retry-count"

    var size: Double {
        switch self {
        case .step, .band, .retry, .anomalyMore: 10
        case .save: 10.5
        case .missed: 11
        case .anomaly: 11.5
        }
    }

    var bold: Bool { self == .save || self == .anomaly || self == .anomalyMore }

    /// A generous width: 0.6 em a character (0.66 bold), a full em for wide scripts (CJK and the like),
    /// so a label drawn in any sans-serif font stays inside its box.
    func width(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { sum, scalar in
            sum + size * (scalar.value >= 0x2E80 ? 1.0 : bold ? 0.66 : 0.6)
        }
    }
}

/// Keeps the timeline's labels from colliding: each label placed occupies a box, and a label whose
/// candidate positions all touch a box already placed (or leave the bounds) is left out, its mark
/// keeping its tooltip. Labels are placed most important first: anomalies, missed commits, saves,
/// steps, lifecycle bands, retry counts.
struct LabelBoard {
    struct Point: Equatable { var x: Double; var y: Double }

    struct Box: Equatable {
        var x0: Double, y0: Double, x1: Double, y1: Double

        func touches(_ other: Box) -> Bool {
            x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1
        }
    }

    private(set) var boxes: [Box] = []

    /// The box `text` occupies written at `point` (its baseline start), with 2 px of air around it.
    static func box(_ text: String, at point: Point, style: LabelStyle) -> Box {
        Box(x0: point.x - 2, y0: point.y - style.size * 0.92 - 1, x1: point.x + style.width(text) + 2, y1: point.y + style.size * 0.26 + 1)
    }

    /// Marks `text` at `point` as taken without checking: for what must be drawn whatever else is there.
    mutating func reserve(_ text: String, at point: Point, style: LabelStyle) {
        boxes.append(Self.box(text, at: point, style: style))
    }

    /// Places `text` at the first candidate that fits inside `bounds` (horizontally) without touching
    /// a label already placed; nil when none does.
    mutating func place(_ text: String, style: LabelStyle, candidates: [Point], bounds: ClosedRange<Double>) -> Point? {
        for point in candidates {
            let box = Self.box(text, at: point, style: style)
            guard bounds.contains(box.x0 + 2), bounds.contains(box.x1 - 2) else { continue }
            if !boxes.contains(where: { $0.touches(box) }) {
                boxes.append(box)
                return point
            }
        }
        return nil
    }
}
