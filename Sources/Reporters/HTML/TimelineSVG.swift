import Basics
import Checkers
import Trace

/// The swim-lane timeline: one lane per process, lifecycle shaded, saves with arrows to each reader's
/// first read showing them, notifications, refreshes, reads, steps, and every anomaly marked and
/// numbered where it happened (hover any mark for its sentence).
struct TimelineSVG {
    let model: TimelineModel
    let run: ReportedRun
    let filter: KeyFilter
    /// The part of the run drawn across the plot; nil for the whole run. A window's timeline is a close-up:
    /// what lies outside it is clipped, and its anomalies link to the list without being link targets.
    private(set) var window: TimelineWindow?

    let width = 1320.0
    let plotLeft = 196.0
    let plotRight = 1290.0
    let axisHeight = 34.0
    let laneHeight = 92.0
    let laneGap = 10.0
    /// Caps that keep a huge run's page light; the tables below still list everything.
    let maxMarks = 3_000, maxArrows = 150, maxStepLabels = 40, maxSaveLabels = 80
    static let maxAnomalies = 400

    init(_ run: ReportedRun, filter: KeyFilter? = nil) {
        self.run = run
        model = TimelineModel(run)
        self.filter = filter ?? KeyFilter(run.result)
    }

    /// The same timeline drawn over `window` only (its model is built once, for all of them).
    func closeUp(of window: TimelineWindow) -> TimelineSVG {
        var copy = self
        copy.window = window
        return copy
    }

    /// The times drawn, from the run's origin.
    private var shown: TimelineWindow { window ?? TimelineWindow(start: 0, end: model.span) }

    /// Whether a mark at `t` can be seen: inside the window, or close enough for part of it to show.
    private func visible(_ t: UInt64) -> Bool {
        guard let window else { return true }
        let margin = (window.end - window.start) / 50
        return t >= window.start.subtractingClamped(margin) && t <= window.end.addingClamped(margin)
    }

    /// `base` with the classes that let the object filter dim a mark about `objects`.
    private func cls(_ base: String, _ objects: [String]) -> String {
        let extra = filter.classes(objects)
        return extra.isEmpty ? base : base + " " + extra
    }

    /// Whether the arrows from a missed commit to each anomaly are drawn only for the anomaly under the
    /// pointer or linked to (`#t<n>`): past a dozen they cross into a hairball.
    var arrowsOnDemand: Bool { Self.arrowsOnDemand(run.result) }

    static func arrowsOnDemand(_ result: CheckResult) -> Bool {
        result.anomalies.prefix(maxAnomalies).filter { $0.cause != nil }.count > 12
    }

    private var laneNames: [String] {
        var names = model.lanes.map(\.name)
        if hasStoreLane { names.append("stores") }
        return names
    }

    private var hasStoreLane: Bool {
        let processes = Set(model.lanes.map(\.name))
        return run.result.anomalies.contains { !processes.contains($0.process) }
    }

    private func x(_ t: UInt64) -> Double {
        guard let window else { return plotLeft + Double(Swift.min(t, model.span)) / Double(model.span) * (plotRight - plotLeft) }
        return plotLeft + (Double(t) - Double(window.start)) / Double(Swift.max(window.end - window.start, 1)) * (plotRight - plotLeft)
    }

    private func top(_ lane: Int) -> Double { axisHeight + Double(lane) * (laneHeight + laneGap) }
    /// Rows inside a lane, from the top: step ticks and labels, save labels, the marks (reads, saves,
    /// anomalies) with their labels, notifications, refreshes.
    private func mid(_ lane: Int) -> Double { top(lane) + 50 }

    func render() -> String {
        let names = laneNames
        var laneOf: [String: Int] = [:]
        for (i, name) in names.enumerated() { laneOf[name] = i }
        let storeLane = hasStoreLane ? names.count - 1 : nil
        let height = top(names.count) + 6
        var svg = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVG.n(width)) \(SVG.n(height))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(height))\" role=\"img\" aria-label=\"Timeline of the run, one lane per process\">\n"
        // Labels are placed most important first, then the layers are drawn bottom to top.
        var board = LabelBoard()
        let anomalyLayer = anomalies(laneOf, storeLane: storeLane, &board)
        let arrowLayer = arrows(laneOf, &board)
        let saveLayer = saves(laneOf, &board)
        let stepLayer = steps(laneOf, &board)
        let (laneLayer, stateLayer) = lanes(storeLane: storeLane, &board)
        let readLayer = reads(laneOf, &board)
        if let window {
            // The main timeline's markers and pattern serve this one; only the clip is its own.
            svg += "<defs><clipPath id=\"\(window.clipID)\"><rect x=\"\(SVG.n(plotLeft - 10))\" y=\"0\" width=\"\(SVG.n(plotRight - plotLeft + 20))\" height=\"\(SVG.n(height))\"/></clipPath></defs>\n"
        } else {
            svg += defs()
        }
        svg += axis(height: height)
        svg += laneLayer
        if let window { svg += "<g clip-path=\"url(#\(window.clipID))\">\n" }
        svg += stateLayer
        svg += stepLayer
        svg += refreshes(laneOf)
        svg += messages(laneOf)
        svg += notifications(laneOf)
        svg += readLayer
        svg += arrowLayer
        svg += saveLayer
        svg += crashes(laneOf)
        svg += anomalyLayer
        if window != nil { svg += "</g>\n" }
        return svg + "</svg>\n"
    }

    private func defs() -> String {
        """
        <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker>
        <marker id="arrow-bad" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead-bad"/></marker>
        <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern>
        </defs>

        """
    }

    private func axis(height: Double) -> String {
        var svg = "<g class=\"axis\">"
        let step = Self.niceStep((shown.end - shown.start) / 8)
        var tick = shown.start.isMultiple(of: step) ? shown.start : (shown.start / step).addingClamped(1).multipliedClamped(by: step)
        while tick <= shown.end {
            let px = x(tick)
            svg += "<line x1=\"\(SVG.n(px))\" y1=\"\(SVG.n(axisHeight - 6))\" x2=\"\(SVG.n(px))\" y2=\"\(SVG.n(height - 6))\" class=\"grid\"/>"
            svg += SVG.text(DurationText.format(tick).replacingZero(), x: px, y: axisHeight - 12, cls: "tick", anchor: "middle")
            tick += step
        }
        return svg + "</g>\n"
    }

    /// The lanes' frames (background and name), and their lifecycle states (clipped in a window).
    private func lanes(storeLane: Int?, _ board: inout LabelBoard) -> (frames: String, states: String) {
        var svg = "<g class=\"lanes\">", states = "<g class=\"states\">"
        for (i, lane) in model.lanes.enumerated() {
            let y = top(i)
            svg += "<g class=\"lane\">"
            svg += "<rect x=\"0\" y=\"\(SVG.n(y))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(laneHeight))\" class=\"lane-bg\"/>"
            for segment in lane.segments where segment.end >= shown.start && segment.start <= shown.end {
                var svg = ""
                defer { states += svg }
                let x0 = x(segment.start), x1 = x(segment.end)
                svg += "<rect x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y + 4))\" width=\"\(SVG.n(Swift.max(x1 - x0, 0.5)))\" height=\"\(SVG.n(laneHeight - 8))\" class=\"state-\(segment.state.rawValue)\">"
                svg += SVG.title("\(lane.name): \(segment.state.label) from \(DurationText.format(segment.start)) to \(DurationText.format(segment.end))") + "</rect>"
                // Suspension and background decide many bugs and are often short against the run: a band
                // along the lane's foot, at least 6 px wide at any scale, named when there is room.
                if segment.state == .suspended || segment.state == .background {
                    let bandWidth = Swift.max(x1 - x0, 6)
                    svg += "<rect x=\"\(SVG.n(x0))\" y=\"\(SVG.n(y + laneHeight - 10))\" width=\"\(SVG.n(bandWidth))\" height=\"6\" class=\"band-\(segment.state.rawValue)\">"
                    svg += SVG.title("\(lane.name): \(segment.state.label) for \(DurationText.format(segment.end - segment.start))") + "</rect>"
                    let name = "\(segment.state == .suspended ? "suspended" : "background") \(DurationText.format(segment.end - segment.start))"
                    if bandWidth > LabelStyle.band.width(name) + 6,
                       let at = board.place(name, style: .band, candidates: [.init(x: Swift.max(x0, plotLeft) + 3, y: y + laneHeight - 13)], bounds: plotLeft...plotRight) {
                        svg += SVG.label(name, at: at, style: .band)
                    }
                }
            }
            svg += SVG.text(lane.name, x: 14, y: y + 34, cls: "lane-name")
            svg += SVG.text(lane.role, x: 14, y: y + 52, cls: "lane-detail")
            svg += "<text x=\"14\" y=\"\(SVG.n(y + 67))\" class=\"lane-detail\">\(Escape.html(Self.clip(lane.store, 30)))\(SVG.title(lane.store))</text>"
            svg += "</g>"
        }
        if let storeLane {
            let y = top(storeLane)
            svg += "<rect x=\"0\" y=\"\(SVG.n(y))\" width=\"\(SVG.n(width))\" height=\"\(SVG.n(laneHeight))\" class=\"lane-bg\"/>"
            svg += SVG.text("stores", x: 14, y: y + 34, cls: "lane-name")
            svg += SVG.text("end-of-run checks", x: 14, y: y + 52, cls: "lane-detail")
        }
        return (svg + "</g>\n", states + "</g>\n")
    }

    private func steps(_ laneOf: [String: Int], _ board: inout LabelBoard) -> String {
        var svg = "<g class=\"steps\">"
        var perLane: [Int: Int] = [:]
        let marks = model.steps.filter { visible($0.t) }
        for mark in marks { if let lane = laneOf[mark.process] { perLane[lane, default: 0] += 1 } }
        for mark in Self.sampled(marks, maxMarks) {
            guard let lane = laneOf[mark.process] else { continue }
            let px = x(mark.t), y = top(lane)
            svg += "<g><line x1=\"\(SVG.n(px))\" y1=\"\(SVG.n(y + 4))\" x2=\"\(SVG.n(px))\" y2=\"\(SVG.n(y + 20))\" class=\"step-tick\"/>"
            let label = "\(mark.index) \(mark.label)"
            if (perLane[lane] ?? 0) <= maxStepLabels,
               let at = board.place(label, style: .step, candidates: [.init(x: px + 3, y: y + 16), .init(x: px - 3 - LabelStyle.step.width(label), y: y + 16)],
                                    bounds: plotLeft...width - 4) {
                svg += SVG.label(label, at: at, style: .step)
            }
            svg += SVG.title(mark.detail) + "</g>"
        }
        return svg + "</g>\n"
    }

    private func refreshes(_ laneOf: [String: Int]) -> String {
        var svg = "<g class=\"refreshes\">"
        for span in Self.sampled(model.refreshes.filter { $0.end >= shown.start && $0.start <= shown.end }, maxMarks) {
            guard let lane = laneOf[span.process] else { continue }
            let x0 = x(span.start), x1 = x(span.end)
            svg += "<rect x=\"\(SVG.n(x0))\" y=\"\(SVG.n(top(lane) + 76))\" width=\"\(SVG.n(Swift.max(x1 - x0, 3)))\" height=\"9\" rx=\"2\" class=\"refresh\">\(SVG.title(span.label))</rect>"
        }
        return svg + "</g>\n"
    }

    /// Each notification from its post on the poster's lane to where it went on the receiver's: a solid
    /// line when delivered, dashed when held (queued, coalesced, delayed), dashed red when lost.
    private func messages(_ laneOf: [String: Int]) -> String {
        var svg = "<g class=\"messages\">"
        for message in Self.sampled(model.messages.filter { $0.t >= shown.start && $0.postedAt <= shown.end }, maxArrows) {
            guard let from = laneOf[message.from], let to = laneOf[message.to] else { continue }
            let x0 = x(message.postedAt), x1 = x(message.t)
            let y0 = top(from) + 73, y1 = top(to) + 66
            let cls = message.decision.isLoss ? "message lost" : message.decision == .delivered ? "message" : "message held"
            let what = message.decision == .delivered ? "delivered to \(message.to)" : "\(message.decision.rawValue) for \(message.to)"
            svg += "<line x1=\"\(SVG.n(x0))\" y1=\"\(SVG.n(y0))\" x2=\"\(SVG.n(x1))\" y2=\"\(SVG.n(y1))\" class=\"\(cls)\">"
                + SVG.title("\(message.from)'s \(message.name) posted at \(DurationText.format(message.postedAt)): \(what) at \(DurationText.format(message.t))")
                + "</line>"
        }
        return svg + "</g>\n"
    }

    private func notifications(_ laneOf: [String: Int]) -> String {
        var svg = "<g class=\"notifications\">"
        for point in Self.sampled(model.received.filter { visible($0.t) }, maxMarks) {
            guard let lane = laneOf[point.process] else { continue }
            let px = x(point.t), y = top(lane) + 73
            svg += "<path d=\"M\(SVG.n(px - 5)),\(SVG.n(y - 7)) L\(SVG.n(px + 5)),\(SVG.n(y - 7)) L\(SVG.n(px)),\(SVG.n(y)) z\" class=\"notification\">\(SVG.title(point.label))</path>"
        }
        // A lost notification: the same triangle, hollow and red, crossed out.
        for point in Self.sampled(model.lost.filter { visible($0.t) }, maxMarks) {
            guard let lane = laneOf[point.process] else { continue }
            let px = x(point.t), y = top(lane) + 73
            svg += "<g class=\"notification-lost\">\(SVG.title(point.label))<path d=\"M\(SVG.n(px - 5)),\(SVG.n(y - 7)) L\(SVG.n(px + 5)),\(SVG.n(y - 7)) L\(SVG.n(px)),\(SVG.n(y)) z\"/>"
                + "<path d=\"M\(SVG.n(px - 6)),\(SVG.n(y - 9)) L\(SVG.n(px + 6)),\(SVG.n(y + 2))\"/></g>"
        }
        return svg + "</g>\n"
    }

    private func reads(_ laneOf: [String: Int], _ board: inout LabelBoard) -> String {
        var svg = "<g class=\"reads\">"
        // The earlier attempts of one `within:` check (often hundreds) are one mark: a thin bracket from
        // the first attempt to the last, with their count; the judged read is drawn on its own.
        var attempts: [String: [TimelineModel.Read]] = [:], order: [String] = []
        for read in model.reads where !read.final && visible(read.t) {
            let key = "\(read.process)#\(read.step.map(String.init) ?? "t\(read.t)")"
            if attempts[key] == nil { order.append(key) }
            attempts[key, default: []].append(read)
        }
        for key in order {
            guard let group = attempts[key], let first = group.first, let last = group.last, let lane = laneOf[first.process] else { continue }
            let x0 = x(first.t), x1 = x(last.t), y = mid(lane)
            let title = group.count == 1 ? "an earlier attempt: \(first.label)" : "\(group.count) earlier attempts of \(first.process)'s check\(first.step.map { " (step \($0))" } ?? ""), "
                + "from \(DurationText.format(first.t)) to \(DurationText.format(last.t)); the last: \(last.label)"
            svg += "<g class=\"\(cls("read-retries", first.objects))\">\(SVG.title(title))"
            svg += "<path d=\"M\(SVG.n(x0)),\(SVG.n(y - 6)) L\(SVG.n(x0)),\(SVG.n(y + 6)) M\(SVG.n(x0)),\(SVG.n(y)) L\(SVG.n(x1)),\(SVG.n(y)) M\(SVG.n(x1)),\(SVG.n(y - 6)) L\(SVG.n(x1)),\(SVG.n(y + 6))\"/>"
            let label = "×\(group.count)"
            let labelWidth = LabelStyle.retry.width(label)
            if x1 - x0 > labelWidth + 8,
               let at = board.place(label, style: .retry, candidates: [.init(x: (x0 + x1 - labelWidth) / 2, y: y + 16)], bounds: plotLeft...plotRight) {
                svg += SVG.label(label, at: at, style: .retry)
            }
            svg += "</g>"
        }
        for read in Self.sampled(model.reads.filter { $0.final && visible($0.t) }, maxMarks) {
            guard let lane = laneOf[read.process] else { continue }
            let px = x(read.t), y = mid(lane)
            svg += "<rect x=\"\(SVG.n(px - 2))\" y=\"\(SVG.n(y - 8))\" width=\"4\" height=\"16\" rx=\"1\" class=\"\(cls("read", read.objects))\">\(SVG.title(read.label))</rect>"
        }
        return svg + "</g>\n"
    }

    private func arrows(_ laneOf: [String: Int], _ board: inout LabelBoard) -> String {
        var svg = "<g class=\"arrows\">"
        let origin = run.result.origin
        let drawn = run.result.latency.propagations.filter {
            guard let seen = $0.seenAt else { return false }
            return seen.subtractingClamped(origin) >= shown.start && $0.committedAt.subtractingClamped(origin) <= shown.end
        }
        let dense = drawn.count > 40
        for p in Self.sampled(drawn, maxArrows) {
            guard let from = laneOf[p.writer], let to = laneOf[p.reader], let seen = p.seenAt else { continue }
            svg += curve(
                from: (x(p.committedAt - origin), mid(from)), to: (x(seen - origin), mid(to)),
                cls: cls(dense ? "propagation dense" : "propagation", [p.object]), marker: "arrow",
                title: "\(p.writer) → \(p.reader): \(p.object) shown \(DurationText.format(seen - p.committedAt)) after its commit at \(DurationText.format(p.committedAt - origin))")
        }
        // What a stale or missed read should have shown: from the commit it missed to the read. When
        // there are many, each is drawn with its anomaly instead (`missedArrow`), shown on demand.
        guard !arrowsOnDemand else { return svg + "</g>\n" }
        for (i, anomaly) in run.result.anomalies.prefix(Self.maxAnomalies).enumerated() {
            guard let arrow = missedArrow(i, anomaly, laneOf) else { continue }
            if let expected = anomaly.expected, let from = laneOf[anomaly.cause?.process ?? ""], let to = laneOf[anomaly.process] {
                let mx = (x(run.result.offset(anomaly.cause!.t)) + x(run.result.timelineOffset(of: anomaly))) / 2
                let my = (mid(from) + mid(to)) / 2 + (from == to ? -20 : 0)
                let label = "\(expected) not shown", labelWidth = LabelStyle.missed.width(label)
                if let at = board.place(label, style: .missed, candidates: [.init(x: mx - labelWidth / 2, y: my - 5)], bounds: plotLeft...width - 4) {
                    svg += SVG.label(label, at: at, style: .missed)
                }
            }
            svg += arrow
        }
        return svg + "</g>\n"
    }

    /// The dashed arrow from the commit anomaly `i` missed to where it was found; nil without a cause.
    private func missedArrow(_ i: Int, _ anomaly: Anomaly, _ laneOf: [String: Int]) -> String? {
        guard let cause = anomaly.cause, let from = laneOf[cause.process], let to = laneOf[anomaly.process],
              cause.t <= anomaly.t else { return nil }
        return curve(
            from: (x(run.result.offset(cause.t)), mid(from)), to: (x(run.result.timelineOffset(of: anomaly)) - 10, mid(to)),
            cls: cls(arrowsOnDemand ? "missed on-demand" : "missed", anomaly.object.map { [$0] } ?? []), marker: "arrow-bad",
            title: "#\(i + 1) \(anomaly.kind.rawValue): committed by \(cause.process) at \(DurationText.format(run.result.offset(cause.t))) (version \(cause.version)), not shown at \(DurationText.format(run.result.offset(anomaly.t)))")
    }

    private func curve(from: (Double, Double), to: (Double, Double), cls: String, marker: String, title: String) -> String {
        let dx = Swift.max(24, (to.0 - from.0) / 2)
        let lift = from.1 == to.1 ? -26.0 : 0
        return "<path d=\"M\(SVG.n(from.0)),\(SVG.n(from.1)) C\(SVG.n(from.0 + dx)),\(SVG.n(from.1 + lift)) \(SVG.n(to.0 - dx)),\(SVG.n(to.1 + lift)) \(SVG.n(to.0)),\(SVG.n(to.1))\" class=\"\(cls)\" marker-end=\"url(#\(marker))\">\(SVG.title(title))</path>"
    }

    private func saves(_ laneOf: [String: Int], _ board: inout LabelBoard) -> String {
        var svg = "<g class=\"saves\">"
        let label = model.saves.filter { visible($0.t) }.count <= maxSaveLabels
        for save in Self.sampled(model.saves.filter { visible($0.t) }, maxMarks) {
            guard let lane = laneOf[save.process] else { continue }
            let px = x(save.t), y = mid(lane)
            svg += "<g\(filter.attribute(save.objects))><circle cx=\"\(SVG.n(px))\" cy=\"\(SVG.n(y))\" r=\"6\" class=\"save\"/>"
            if label, let at = board.place(save.label, style: .save, candidates: [.init(x: px - 4, y: y - 13), .init(x: px + 4 - LabelStyle.save.width(save.label), y: y - 13)],
                                           bounds: plotLeft...width - 4) {
                svg += SVG.label(save.label, at: at, style: .save)
            }
            svg += SVG.title(save.detail) + "</g>"
        }
        return svg + "</g>\n"
    }

    private func crashes(_ laneOf: [String: Int]) -> String {
        var svg = "<g class=\"crashes\">"
        for point in model.crashes {
            guard let lane = laneOf[point.process] else { continue }
            let px = x(point.t), y = mid(lane)
            svg += "<path d=\"M\(SVG.n(px - 6)),\(SVG.n(y - 6)) L\(SVG.n(px + 6)),\(SVG.n(y + 6)) M\(SVG.n(px + 6)),\(SVG.n(y - 6)) L\(SVG.n(px - 6)),\(SVG.n(y + 6))\" class=\"crash\">\(SVG.title("\(point.process) crashed at \(DurationText.format(point.t))"))</path>"
        }
        return svg + "</g>\n"
    }

    private func anomalies(_ laneOf: [String: Int], storeLane: Int?, _ board: inout LabelBoard) -> String {
        var svg = "<g class=\"anomalies\">"
        // Dots closer than a dot's width on one lane would hide each other's numbers: the first of such
        // a cluster is drawn with a "+n" badge and every number in its tooltip; the others keep their
        // anchor (`#t<n>`, for "show on the timeline") and their on-demand arrow, with no dot of their own.
        let placed = run.result.anomalies.prefix(Self.maxAnomalies).enumerated().compactMap { i, anomaly -> (Int, Anomaly, Int, Double)? in
            guard let lane = laneOf[anomaly.process] ?? storeLane else { return nil }
            return (i, anomaly, lane, x(run.result.timelineOffset(of: anomaly)))
        }
        var clusterOf: [Int: Int] = [:], members: [Int: [Int]] = [:], lastDot: [Int: (index: Int, x: Double)] = [:]
        for (i, _, lane, px) in placed.sorted(by: { ($0.2, $0.3, $0.0) < ($1.2, $1.3, $1.0) }) {
            if let last = lastDot[lane], px - last.x < 20 {
                clusterOf[i] = last.index
                members[last.index, default: []].append(i)
            } else {
                lastDot[lane] = (i, px)
            }
        }
        // The count of a cluster is drawn whatever else is there: reserved before any label is placed.
        for (i, _, lane, px) in placed where members[i] != nil {
            board.reserve("+\(members[i]!.count)", at: LabelBoard.Point(x: px + 9, y: mid(lane) + 17), style: .anomalyMore)
        }
        for (i, anomaly, lane, px) in placed {
            let y = mid(lane)
            let objects = ([i] + (members[i] ?? [])).compactMap { run.result.anomalies[$0].object }
            svg += "<a href=\"#a\(i + 1)\"\(window == nil ? " id=\"t\(i + 1)\"" : "")><g class=\"\(cls("anomaly", objects))\">"
            if arrowsOnDemand, let arrow = missedArrow(i, anomaly, laneOf) { svg += arrow }
            if clusterOf[i] != nil {
                svg += SVG.title("#\(i + 1) \(anomaly.kind.rawValue): \(anomaly.explanation)") + "</g></a>"
                continue
            }
            let others = members[i] ?? []
            svg += "<circle cx=\"\(SVG.n(px))\" cy=\"\(SVG.n(y))\" r=\"10\" class=\"anomaly-dot\"/>"
            svg += SVG.text("\(i + 1)", x: px, y: y + 4, cls: "anomaly-number", anchor: "middle")
            if !others.isEmpty {
                svg += SVG.label("+\(others.count)", at: LabelBoard.Point(x: px + 9, y: y + 17), style: .anomalyMore)
            }
            let subject = [anomaly.object, anomaly.property].compactMap { $0 }.joined(separator: ".")
            let label = anomaly.kind.rawValue + (subject.isEmpty ? "" : " \(subject)")
            let labelWidth = LabelStyle.anomaly.width(label)
            // Above the marks, beside the dot: the arrows arrive at the dot's height.
            if let at = board.place(label, style: .anomaly, candidates: [.init(x: px + 8, y: y - 14), .init(x: px - 8 - labelWidth, y: y - 14)],
                                    bounds: plotLeft...width - 4) {
                svg += SVG.label(label, at: at, style: .anomaly)
            }
            let title = "#\(i + 1) \(anomaly.kind.rawValue): \(anomaly.explanation)"
                + (others.isEmpty ? "" : " (and #" + others.map { String($0 + 1) }.joined(separator: ", #") + " here)")
            svg += SVG.title(title) + "</g></a>"
        }
        return svg + "</g>\n"
    }

    /// At most `limit` elements, evenly spread over the whole run (a huge run's page stays light;
    /// the tables list everything).
    static func sampled<T>(_ items: [T], _ limit: Int) -> [T] {
        guard items.count > limit else { return items }
        let stride = (items.count + limit - 1) / limit
        return items.indices.filter { $0 % stride == 0 }.map { items[$0] }
    }

    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// A 1-2-5 step at least `rough` nanoseconds (and at least 1 µs).
    static func niceStep(_ rough: UInt64) -> UInt64 {
        var step: UInt64 = 1_000
        while true {
            for m: UInt64 in [1, 2, 5] where step * m >= rough { return step * m }
            step *= 10
        }
    }
}

private extension String {
    /// `0 ns` reads oddly on an axis: `0`.
    func replacingZero() -> String { self == "0 ns" ? "0" : self }
}
