import Basics
import Foundation
import Notify
import Testing
import TestSupport

/// Notifications crossing a real process boundary, to and from `testpeer notify`.
@Suite(.serialized, .spawnsProcesses) struct CrossProcessNotificationTests {
    @Test func directPostReachesAnObserverInAnotherProcess() throws {
        let dir = try TemporaryDirectory()
        let peer = try PeerProcess(["notify", "observe-direct", dir.path("n"), "com.example.didSave", "1"])
        #expect(peer.line(startingWith: "ready") != nil)
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        #expect(try center.postReporting("com.example.didSave").delivered == 1)
        let line = try #require(peer.line(startingWith: "received"))
        #expect(line.hasPrefix("received com.example.didSave poster=\(getpid()) own=false"))
        #expect(peer.exitCode() == 0)
    }

    @Test func directPostFromAnotherProcessReachesThisOne() throws {
        let dir = try TemporaryDirectory()
        let center = try DirectNotificationCenter(directory: dir.path("n"))
        defer { center.close() }
        let collector = Collector()
        _ = try center.addObserver("com.example.didSave", handler: collector.handler)
        let peer = try PeerProcess(["notify", "post-direct", dir.path("n"), "com.example.didSave"])
        #expect(peer.exitCode() == 0)
        #expect(peer.output == ["posted 1"])
        let received = collector.wait(for: 1)
        #expect(received.map(\.poster) == [String(peer.pid)])
        #expect(received.first?.isOwnPost == false)
    }

    @Test func hubDeliversToAnObserverInAnotherProcess() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try NotifyHub(socketPath: dir.path("hub.sock"), onRecord: log.handler)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        let peer = try PeerProcess(["notify", "observe-hub", hub.socketPath, "app", "didSave", "1"])
        #expect(peer.line(startingWith: "ready") != nil)
        hub.setLifecycle(.active, for: "share")
        let share = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "share")
        defer { share.close() }
        try share.post("didSave")
        let line = try #require(peer.line(startingWith: "received"))
        #expect(line.hasPrefix("received didSave poster=share own=false"))
        #expect(peer.exitCode() == 0)
    }

    @Test func hubDeliversAPostFromAnotherProcessToThisOne() throws {
        let dir = try TemporaryDirectory()
        let hub = try NotifyHub(socketPath: dir.path("hub.sock"))
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        hub.setLifecycle(.active, for: "share")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        defer { app.close() }
        let collector = Collector()
        _ = try app.addObserver("didSave", handler: collector.handler)
        let peer = try PeerProcess(["notify", "post-hub", hub.socketPath, "share", "didSave"])
        #expect(peer.exitCode() == 0)
        #expect(collector.wait(for: 1).map(\.poster) == ["share"])
    }

    @Test func reallyStoppedObserverGetsOneCoalescedDeliveryAfterResume() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try NotifyHub(socketPath: dir.path("hub.sock"), onRecord: log.handler)
        defer { hub.close() }
        hub.setPolicy(.coalesce, for: "app")
        hub.setLifecycle(.active, for: "app")
        let peer = try PeerProcess(["notify", "observe-hub", hub.socketPath, "app", "didSave", "1"])
        #expect(peer.line(startingWith: "ready") != nil)

        hub.setLifecycle(.suspended, for: "app")
        peer.stop()
        for _ in 0..<3 { hub.post("didSave", from: "share") }
        // The hub decided every post while app was suspended: nothing was sent to the stopped peer.
        #expect(log.kinds(for: "app") == [.observed, .queued, .coalesced, .coalesced])
        peer.resume()
        hub.setLifecycle(.active, for: "app")

        #expect(peer.line(startingWith: "received didSave poster=share") != nil)
        #expect(peer.exitCode() == 0)
        #expect(log.kinds(for: "app").prefix(5) == [.observed, .queued, .coalesced, .coalesced, .delivered])
    }
}
