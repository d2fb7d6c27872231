import Basics
import Foundation
import Notify
import Testing
import TestSupport

@Suite struct DirectNotificationCenterTests {
    @Test func observerInTheSameProcessReceivesAPostAsOwn() throws {
        let dir = try TemporaryDirectory()
        let observing = try DirectNotificationCenter(directory: dir.path("n"))
        let posting = try DirectNotificationCenter(directory: dir.path("n"))
        defer { observing.close(); posting.close() }
        let collector = Collector()
        _ = try observing.addObserver("com.example.didSave", handler: collector.handler)
        let before = MonotonicClock.now()
        let report = try posting.postReporting("com.example.didSave")
        #expect(report.delivered == 1)
        let received = collector.wait(for: 1)
        #expect(received.map(\.name) == ["com.example.didSave"])
        #expect(received.first?.isOwnPost == true)
        #expect(received.first.map { $0.postedAt >= before && $0.receivedAt >= $0.postedAt } == true)
    }

    @Test func postsBeforeRegistrationAreNeverReplayed() throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        try center.post("a")
        let collector = Collector()
        _ = try center.addObserver("a", handler: collector.handler)
        #expect(collector.settle().isEmpty)
        try center.post("a")
        #expect(collector.wait(for: 1).count == 1)
    }

    @Test func removedObserverReceivesNothing() throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        let kept = Collector()
        let removed = Collector()
        _ = try center.addObserver("a", handler: kept.handler)
        let observer = try center.addObserver("a", handler: removed.handler)
        try center.removeObserver(observer)
        try center.removeObserver(observer)
        try center.post("a")
        #expect(kept.wait(for: 1).count == 1)
        #expect(removed.settle().isEmpty)
    }

    @Test func onlyTheNamePostedIsDelivered() throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        let collector = Collector()
        _ = try center.addObserver("a", handler: collector.handler)
        try center.post("b")
        try center.post("a")
        #expect(collector.wait(for: 1).map(\.name) == ["a"])
        #expect(collector.settle(.milliseconds(30)).count == 1)
    }

    @Test func staleRegistrationOfADeadObserverIsRemovedByThePost() throws {
        let dir = try TemporaryDirectory()
        let gone = try DirectNotificationCenter(directory: dir.path("n"))
        _ = try gone.addObserver("a") { _ in }
        // Simulate a crash: the socket disappears but its registration stays.
        let names = dir.path("n/names")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: names).first)
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(names)/\(folder)").first)
        try FileManager.default.copyItem(atPath: "\(names)/\(folder)/\(entry)", toPath: "\(names)/\(folder)/99999-1")
        gone.close()

        let poster = try DirectNotificationCenter(directory: dir.path("n"))
        defer { poster.close() }
        let report = try poster.postReporting("a")
        #expect(report == .init(delivered: 0, removedStale: 1, droppedFull: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(names)/\(folder)").isEmpty)
    }

    @Test func longNamesAreHashedIntoShortSocketPaths() throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        let long = "com.example." + String(repeating: "very-long-name/", count: 20)
        let collector = Collector()
        _ = try center.addObserver(long, handler: collector.handler)
        try center.post(long)
        #expect(collector.wait(for: 1).map(\.name) == [long])
    }

    @Test func directoryTooLongForASocketPathIsATypedError() throws {
        let dir = try TemporaryDirectory()
        let deep = dir.path(String(repeating: "d", count: 120))
        #expect(throws: NotifyError.self) { try DirectNotificationCenter(directory: deep) }
    }

    @Test func deliveriesArriveAsAnAsyncSequence() async throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        let stream = try center.notifications(named: "a")
        try center.post("a")
        try center.post("a")
        var count = 0
        for await delivery in stream {
            #expect(delivery.name == "a")
            count += 1
            if count == 2 { break }
        }
        #expect(count == 2)
    }
}
