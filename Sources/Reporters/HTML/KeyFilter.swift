import Checkers

/// One object's view of a run that touches many (a workload): a row of the objects with anomalies
/// above the timeline; choosing one dims every mark on the timeline that is not about it and hides
/// the other anomalies from the list. The page stays script-free: the choice is a radio input placed
/// before what it filters, and a CSS rule per object does the rest.
struct KeyFilter {
    /// The objects offered, in the order of their first anomaly.
    let keys: [String]
    /// How many anomalies each object has.
    let counts: [String: Int]
    private let index: [String: Int]

    /// Offered past this many objects with anomalies; the cap keeps the page's rules few.
    static let minimumKeys = 4
    static let maximumKeys = 60

    init(_ result: CheckResult) {
        var keys: [String] = [], counts: [String: Int] = [:]
        for anomaly in result.anomalies {
            guard let object = anomaly.object else { continue }
            if counts[object] == nil { keys.append(object) }
            counts[object, default: 0] += 1
        }
        self.keys = keys.count >= Self.minimumKeys ? Array(keys.prefix(Self.maximumKeys)) : []
        self.counts = counts
        index = Dictionary(uniqueKeysWithValues: self.keys.enumerated().map { ($1, $0 + 1) })
    }

    /// Whether the page offers the filter at all.
    var isActive: Bool { !keys.isEmpty }

    /// The classes a mark about `objects` carries: `mark` (what the filter can dim) and one `k<n>` per
    /// object offered; empty when the filter is off, so a small run's page is unchanged.
    func classes(_ objects: [String]) -> String {
        guard isActive else { return "" }
        return (["mark"] + objects.compactMap { index[$0].map { "k\($0)" } }).joined(separator: " ")
    }

    /// ` class="…"` for a mark's element, or nothing when the filter is off.
    func attribute(_ objects: [String]) -> String {
        let value = classes(objects)
        return value.isEmpty ? "" : " class=\"\(value)\""
    }

    /// The radio inputs, before every element they filter (CSS selects only later siblings).
    func inputs() -> String {
        guard isActive else { return "" }
        return "<input type=\"radio\" name=\"key\" id=\"key-all\" class=\"key-input\" checked>"
            + keys.indices.map { "<input type=\"radio\" name=\"key\" id=\"key-\($0 + 1)\" class=\"key-input\">" }.joined() + "\n"
    }

    /// The row of choices, above the timeline.
    func bar() -> String {
        guard isActive else { return "" }
        let choices = keys.enumerated().map { i, key in
            "<label for=\"key-\(i + 1)\">\(Escape.html(key)) <span class=\"key-count\">\(counts[key] ?? 0)</span></label>"
        }
        return "<p class=\"key-filter\"><span class=\"key-caption\">Show one object:</span><label for=\"key-all\">all</label>"
            + choices.joined() + "</p>\n"
    }

    /// The rules that make a choice filter: dim the other marks, hide the other anomalies, show the
    /// choice as chosen.
    func css() -> String {
        guard isActive else { return "" }
        var css = "#key-all:checked ~ .key-filter label[for=\"key-all\"] { background: var(--ink); color: #fff; }\n"
        for n in 1...keys.count {
            css += "#key-\(n):checked ~ .key-filter label[for=\"key-\(n)\"] { background: var(--ink); color: #fff; }\n"
            css += "#key-\(n):checked ~ .key-filter label[for=\"key-\(n)\"] .key-count { color: #ffb4b4; }\n"
            css += "#key-\(n):checked ~ .scroll .mark:not(.k\(n)) { opacity: 0.1; }\n"
            css += "#key-\(n):checked ~ .scroll .missed.on-demand.k\(n) { visibility: visible; }\n"
            css += "#key-\(n):checked ~ ol.anomalies > li:not(.k\(n)), #key-\(n):checked ~ details ol.anomalies > li:not(.k\(n)) { display: none; }\n"
        }
        return css
    }
}
