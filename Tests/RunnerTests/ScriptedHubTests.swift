import Agent
import Basics
import Foundation
import Notify
@testable import Runner
import Testing
import TestSupport
import Trace

/// The deterministic mode's hub and clock, without processes: virtual time moves only when told, and
/// deliveries wait until they are taken.
@Suite struct ScriptedHubTests {
    private func hub() throws -> (ScriptedHub, VirtualTime, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "groupsim-hub")
        let clock = VirtualTime()
        let recorder = try TraceRecorder(path: directory.path("hub.jsonl"), process: "hub", clock: { clock.reading() })
        return (ScriptedHub(time: clock, recorder: recorder), clock, directory)
    }

    private func post(_ name: String, at t: UInt64) -> NotificationActivity {
        NotificationActivity(posts: [PostedNotification(name: name, at: t)])
    }

    @Test func virtualTimeTicksPerReadingAndNeverGoesBack() {
        let clock = VirtualTime()
        let first = clock.reading()
        #expect(first == VirtualTime.origin)
        #expect(clock.reading() == first + VirtualTime.tick)
        clock.pass(to: first + 5_000_000)
        #expect(clock.now == first + 5_000_000)
        clock.pass(to: first)
        #expect(clock.now == first + 5_000_000)
        clock.pass(by: .max)
        #expect(clock.now == .max, "a wait past the end of time stops there")
    }

    @Test func aHeldProcessGetsWhatWasPostedOnlyWhenReleased() throws {
        let (hub, _, _) = try hub()
        hub.setLifecycle(.active, for: "app")
        hub.route(NotificationActivity(observed: ["didSave"]), from: "app")
        hub.hold("app")
        hub.hold("app")
        hub.route(post("didSave", at: 10), from: "share")
        hub.release("app")
        #expect(!hub.hasPending(for: "app"), "holds nest: one is still on")
        hub.release("app")
        #expect(hub.take(for: "app") == [DeliveredNotification(name: "didSave", poster: "share", postedAt: 10)])
    }

    @Test func aPostWaitsForEveryObserverUntilTaken() throws {
        let (hub, _, _) = try hub()
        for process in ["app", "share"] {
            hub.setLifecycle(.active, for: process)
            hub.route(NotificationActivity(observed: ["didSave"]), from: process)
        }
        hub.route(post("didSave", at: 10), from: "share")
        #expect(hub.hasPending(for: "app") && hub.hasPending(for: "share"), "the poster observes its own posts too")
        let taken = hub.take(for: "app")
        #expect(taken == [DeliveredNotification(name: "didSave", poster: "share", postedAt: 10)])
        #expect(hub.take(for: "app").isEmpty, "taken once")
        #expect(hub.hasPending(for: "share"))
    }

    @Test func postsToASuspendedProcessCoalesceAndArriveOnResume() throws {
        let (hub, _, _) = try hub()
        hub.setLifecycle(.active, for: "app")
        hub.route(NotificationActivity(observed: ["didSave"]), from: "app")
        hub.setLifecycle(.suspended, for: "app")
        hub.route(post("didSave", at: 10), from: "share")
        hub.route(post("didSave", at: 20), from: "share")
        #expect(!hub.hasPending(for: "app"))
        hub.setLifecycle(.active, for: "app")
        #expect(hub.take(for: "app").count == 1, "coalesced into one")
    }

    @Test func aDelayedDeliveryWaitsForItsVirtualDeadline() throws {
        let (hub, clock, _) = try hub()
        hub.setLifecycle(.active, for: "app")
        hub.route(NotificationActivity(observed: ["didSave"]), from: "app")
        hub.delayNotifications(to: "app", by: .milliseconds(500))
        hub.route(post("didSave", at: clock.now), from: "share")
        #expect(!hub.hasPending(for: "app"))
        let deadline = try #require(hub.nextDeadline)
        #expect(deadline >= clock.now + 499_000_000)
        clock.pass(to: deadline)
        hub.tick(at: deadline)
        #expect(hub.hasPending(for: "app"))
    }

    @Test func aProcessThatStopsRunningLosesWhatWaitedForIt() throws {
        let (hub, _, _) = try hub()
        hub.setLifecycle(.active, for: "app")
        hub.route(NotificationActivity(observed: ["didSave"]), from: "app")
        hub.route(post("didSave", at: 10), from: "share")
        hub.setLifecycle(.notRunning, for: "app")
        #expect(!hub.hasPending(for: "app"))
    }
}
