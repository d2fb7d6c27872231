import Basics
import Foundation
import Notify
import Testing
import TestSupport

@Suite struct NotifyHubTests {
    private func makeHub(_ dir: TemporaryDirectory, log: RecordLog) throws -> NotifyHub {
        try NotifyHub(socketPath: dir.path("hub.sock"), onRecord: log.handler)
    }

    @Test func postThroughTheHubReachesARunningObserver() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try makeHub(dir, log: log)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        hub.setLifecycle(.active, for: "share")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        let share = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "share")
        defer { app.close(); share.close() }
        let collector = Collector()
        _ = try app.addObserver("didSave", handler: collector.handler)
        try share.post("didSave")
        let received = collector.wait(for: 1)
        #expect(received.map(\.poster) == ["share"])
        #expect(received.first?.isOwnPost == false)
        // The hub thread records a delivery after sending it: wait for the record too.
        #expect(log.wait { $0 == [.observed, .delivered] }, "\(log.kinds(for: "app"))")
    }

    @Test func suspendedQueueProcessGetsEveryPostAtResumeEvenBeyondTheSocketQueue() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try makeHub(dir, log: log)
        defer { hub.close() }
        hub.setPolicy(.queue, for: "app")
        hub.setLifecycle(.active, for: "app")
        hub.setLifecycle(.active, for: "share")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        let share = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "share")
        defer { app.close(); share.close() }
        let collector = Collector()
        // The hub drains its socket before every input it is handed, so the observe is in first.
        _ = try app.addObserver("didSave", handler: collector.handler)
        hub.setLifecycle(.suspended, for: "app")
        // More than the kernel's datagram queue (net.unix.max_dgram_qlen, 10 here) holds.
        for _ in 0..<40 { try share.post("didSave") }
        // Every post is decided on the hub's record; none may be a delivery while app is suspended.
        #expect(log.wait { $0.filter { $0 == .queued }.count == 40 }, "\(log.kinds(for: "app"))")
        #expect(!log.kinds(for: "app").contains(.delivered))
        #expect(collector.deliveries.isEmpty)
        hub.setLifecycle(.active, for: "app")
        let received = collector.wait(for: 40)
        #expect(received.count == 40)
        #expect(received.map(\.postedAt) == received.map(\.postedAt).sorted())
    }

    @Test func suspendedCoalesceProcessGetsOneDeliveryPerName() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try makeHub(dir, log: log)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        defer { app.close() }
        let collector = Collector()
        // The hub drains its socket before every input it is handed, so the observe is in first.
        _ = try app.addObserver("didSave", handler: collector.handler)
        hub.setLifecycle(.suspended, for: "app")
        for _ in 0..<5 { hub.post("didSave", from: "share") }
        hub.setLifecycle(.active, for: "app")
        #expect(collector.wait(for: 1).count == 1)
        #expect(collector.settle().count == 1)
        #expect(log.kinds(for: "app") == [.observed, .queued, .coalesced, .coalesced, .coalesced, .coalesced, .delivered])
    }

    @Test func delayFaultHoldsDeliveriesBackOnTheHubThread() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try makeHub(dir, log: log)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        defer { app.close() }
        let collector = Collector()
        // The hub drains its socket before every input it is handed, so the observe is in first.
        _ = try app.addObserver("didSave", handler: collector.handler)
        hub.delayNotifications(to: "app", by: .milliseconds(40))
        hub.post("didSave", from: "share")
        let received = collector.wait(for: 1)
        #expect(received.count == 1)
        #expect(received.first.map { $0.latency >= 40_000_000 } == true)
        #expect(log.wait { $0 == [.observed, .delayed, .delivered] }, "\(log.kinds(for: "app"))")
    }

    @Test func dropFaultLosesDeliveriesForItsDuration() throws {
        // A manual clock: the window is a fact of the hub's clock, not of how fast this test runs.
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let clock = ManualClock(start: 1_000_000_000)
        let hub = try NotifyHub(socketPath: dir.path("hub.sock"), clock: clock.read, onRecord: log.handler)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        defer { app.close() }
        let collector = Collector()
        _ = try app.addObserver("didSave", handler: collector.handler)
        hub.dropNotifications(to: "app", for: .milliseconds(400))
        clock.advance(by: 399_000_000)
        hub.post("didSave", from: "share")
        #expect(log.kinds(for: "app") == [.observed, .droppedByFault])
        clock.advance(by: 1_000_000)
        hub.post("didSave", from: "share")
        #expect(collector.wait(for: 1).count == 1)
        #expect(log.kinds(for: "app") == [.observed, .droppedByFault, .delivered])
    }
}
