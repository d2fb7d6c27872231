import Notify
import Testing

@Suite struct LocalNotificationCenterTests {
    @Test func centersOnOneBusNotifyEachOtherWithoutReplay() throws {
        let bus = LocalNotificationBus()
        let app = LocalNotificationCenter(bus: bus, process: "app")
        let share = LocalNotificationCenter(bus: bus, process: "share")
        defer { app.close(); share.close() }
        try share.post("didSave")
        let collector = Collector()
        _ = try app.addObserver("didSave", handler: collector.handler)
        #expect(collector.settle(.milliseconds(20)).isEmpty)
        try share.post("didSave")
        try app.post("didSave")
        let received = collector.wait(for: 2)
        #expect(received.map(\.poster) == ["share", "app"])
        #expect(received.map(\.isOwnPost) == [false, true])
    }
}
