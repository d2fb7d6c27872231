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
        #expect(log.kinds(for: "app") == [.observed, .delivered])
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
        _ = try app.addObserver("didSave", handler: collector.handler)
        Thread.sleep(forTimeInterval: 0.02)
        hub.setLifecycle(.suspended, for: "app")
        // More than the kernel's datagram queue (net.unix.max_dgram_qlen, 10 here) holds.
        for _ in 0..<40 { try share.post("didSave") }
        #expect(collector.settle(.milliseconds(50)).isEmpty)
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
        _ = try app.addObserver("didSave", handler: collector.handler)
        Thread.sleep(forTimeInterval: 0.02)
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
        _ = try app.addObserver("didSave", handler: collector.handler)
        Thread.sleep(forTimeInterval: 0.02)
        hub.delayNotifications(to: "app", by: .milliseconds(40))
        hub.post("didSave", from: "share")
        let received = collector.wait(for: 1)
        #expect(received.count == 1)
        #expect(received.first.map { $0.latency >= 40_000_000 } == true)
        #expect(log.kinds(for: "app") == [.observed, .delayed, .delivered])
    }

    @Test func dropFaultLosesDeliveriesForItsDuration() throws {
        let dir = try TemporaryDirectory()
        let log = RecordLog()
        let hub = try makeHub(dir, log: log)
        defer { hub.close() }
        hub.setLifecycle(.active, for: "app")
        let app = try HubNotificationCenter(hubSocketPath: hub.socketPath, process: "app")
        defer { app.close() }
        let collector = Collector()
        _ = try app.addObserver("didSave", handler: collector.handler)
        Thread.sleep(forTimeInterval: 0.02)
        // A window long enough that a descheduled test thread still posts inside it.
        hub.dropNotifications(to: "app", for: .milliseconds(400))
        hub.post("didSave", from: "share")
        #expect(collector.settle(.milliseconds(450)).isEmpty)
        hub.post("didSave", from: "share")
        #expect(collector.wait(for: 1).count == 1)
        #expect(log.kinds(for: "app") == [.observed, .droppedByFault, .delivered])
    }
}
