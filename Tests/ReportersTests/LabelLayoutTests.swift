import Checkers
import Foundation
@testable import Reporters
import Testing
import Trace

/// The timeline's labels never cover each other, however crowded the run; and a run touching many
/// objects can be narrowed to one of them without a script.
@Suite("timeline labels and the object filter")
struct LabelLayoutTests {
    /// A crowded run: `keys` objects each inserted by app, updated by share and read stale by app, all
    /// within a few milliseconds, with a step per read, a short suspension and earlier attempts.
    private func crowded(keys: Int, prefix: String = "note-") -> RunTrace {
        var s = TraceScript(processes: [("app", .host), ("share", .share)], expected: .anomalies([.staleRead]))
        s.at(ms: 0.1)
        s.lifecycle("app", .active)
        s.lifecycle("share", .active)
        for k in 1...keys {
            s.at(ms: Double(k) * 0.3)
            s.insert("app", "\(prefix)\(k)", ["title": .string("A")])
        }
        s.at(ms: 12)
        s.lifecycle("app", .suspended)
        s.at(ms: 12.2)
        s.lifecycle("app", .active)
        for k in 1...keys {
            s.at(ms: 20 + Double(k) * 0.2)
            s.update("share", "\(prefix)\(k)", ["title": .string("B")], version: 2, changed: ["title"])
        }
        for k in 1...keys {
            s.at(ms: 40 + Double(k) * 0.25)
            s.step("app", "app: read \(prefix)\(k) expect { title: B }", line: 10 + k)
            s.read("app", "\(prefix)\(k)", ["title": .string("A")], version: 1, final: false)
            s.at(ms: 40.1 + Double(k) * 0.25)
            s.read("app", "\(prefix)\(k)", ["title": .string("A")], version: 1)
        }
        return s.trace
    }

    private struct Label { var style: LabelStyle; var text: String; var x: Double; var y: Double }

    /// Every label the board places, read back from the page.
    private func labels(_ html: String) throws -> [Label] {
        let pattern = try NSRegularExpression(pattern: #"<text x="([-0-9.]+)" y="([-0-9.]+)" class="([a-z-]+)">([^<]*)</text>"#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).compactMap { match in
            func group(_ n: Int) -> String { String(html[Range(match.range(at: n), in: html)!]) }
            guard let style = LabelStyle(rawValue: group(3)), let x = Double(group(1)), let y = Double(group(2)) else { return nil }
            let text = group(4).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            return Label(style: style, text: text, x: x, y: y)
        }
    }

    @Test(arguments: [3, 14, 40])
    func noTwoLabelsOverlapHoweverCrowdedTheRun(keys: Int) throws {
        let html = HTMLReport.render(ReportedRun(checking: crowded(keys: keys)))
        let placed = try labels(html)
        #expect(Set(placed.map(\.style)).isSuperset(of: [.anomaly, .save, .step]), "the run has labels of each kind to collide")
        for (i, a) in placed.enumerated() {
            let boxA = LabelBoard.box(a.text, at: .init(x: a.x, y: a.y), style: a.style)
            for b in placed[(i + 1)...] {
                let boxB = LabelBoard.box(b.text, at: .init(x: b.x, y: b.y), style: b.style)
                // Boxes carry 2 px of air each side: labels touching only in that air do not overlap.
                let inner = LabelBoard.Box(x0: boxA.x0 + 2, y0: boxA.y0 + 1, x1: boxA.x1 - 2, y1: boxA.y1 - 1)
                #expect(!inner.touches(boxB), "\(a.style.rawValue) “\(a.text)” at \(a.x),\(a.y) overlaps \(b.style.rawValue) “\(b.text)” at \(b.x),\(b.y)")
            }
        }
    }

    @Test func theBoardLeavesOutALabelWhoseEveryPlaceIsTakenAndTriesTheNext() {
        var board = LabelBoard()
        let first = board.place("stale-read n1", style: .anomaly, candidates: [.init(x: 300, y: 100)], bounds: 200...1300)
        #expect(first == .init(x: 300, y: 100))
        #expect(board.place("stale-read n2", style: .anomaly, candidates: [.init(x: 310, y: 100)], bounds: 200...1300) == nil)
        let second = board.place("stale-read n2", style: .anomaly, candidates: [.init(x: 310, y: 100), .init(x: 150, y: 100), .init(x: 310, y: 130)], bounds: 200...1300)
        #expect(second == .init(x: 310, y: 130), "the second candidate leaves the bounds, the third is free")
        #expect(LabelStyle.step.width("日本語") > LabelStyle.step.width("abc"), "wide scripts are measured wider")
    }

    @Test func aRunTouchingManyObjectsCanBeNarrowedToOneWithoutAScript() {
        let html = HTMLReport.render(ReportedRun(checking: crowded(keys: 6, prefix: "<k&")))
        #expect(!html.contains("<script"))
        #expect(html.contains("<input type=\"radio\" name=\"key\" id=\"key-all\" class=\"key-input\" checked>"))
        #expect(html.contains("<label for=\"key-3\">&lt;k&amp;3 <span class=\"key-count\">1</span></label>"), "each object with its anomaly count, escaped")
        #expect(html.contains("#key-3:checked ~ .scroll .mark:not(.k3) { opacity: 0.1; }"))
        #expect(html.contains("#key-3:checked ~ ol.anomalies > li:not(.k3)"))
        // The inputs come before everything they filter: CSS only selects later siblings.
        let input = html.range(of: "id=\"key-6\"")!.lowerBound
        #expect(input < html.range(of: "<div class=\"scroll\">")!.lowerBound)
        #expect(input < html.range(of: "<ol class=\"anomalies\">")!.lowerBound)
        #expect(input < html.range(of: "<p class=\"key-filter\">")!.lowerBound)
        // Object 3's marks carry its class: its stale read in the list, its save and read on the timeline.
        let k3 = html.components(separatedBy: " k3\"").count - 1
        #expect(k3 >= 3, "found \(k3) marks of object 3")
        #expect(html.contains("<li id=\"a3\" class=\"mark k3\">"))
    }

    @Test func everyRoutedNotificationIsALineFromItsPostToWhereItWent() {
        var s = TraceScript(processes: [("app", .host), ("share", .share)])
        s.at(ms: 10)
        let posted = s.now
        s.at(ms: 12)
        s.record("hub", .notificationRouted(NotificationRecord(name: "did-save", from: "share", to: "app", postedAt: posted), decision: .delivered))
        s.at(ms: 20)
        s.record("hub", .notificationRouted(NotificationRecord(name: "did-save", from: "share", to: "app", postedAt: posted), decision: .droppedWhileSuspended))
        s.record("hub", .notificationRouted(NotificationRecord(name: "did-save", from: "share", to: "app", postedAt: posted), decision: .coalesced))
        let page = HTMLReport.render(ReportedRun(checking: s.trace))
        let html = String(page[page.range(of: "<svg class=\"timeline\"")!.lowerBound...])
        #expect(html.components(separatedBy: "class=\"message\"").count - 1 == 1)
        #expect(html.components(separatedBy: "class=\"message lost\"").count - 1 == 1)
        #expect(html.components(separatedBy: "class=\"message held\"").count - 1 == 1)
        #expect(html.contains("share&#39;s did-save posted at 10 ms: dropped-while-suspended for app at 20 ms"))
    }

    @Test func aRunAboutAFewObjectsHasNoFilter() {
        let html = HTMLReport.render(ReportedRun(checking: crowded(keys: 3)))
        #expect(!html.contains("class=\"key-input\"") && !html.contains("class=\"mark") && !html.contains(" k1\""))
    }
}
