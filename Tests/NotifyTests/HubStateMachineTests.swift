import Basics
import Notify
import Testing

/// A hub driven by hand: every input at an explicit time on a manual clock.
private struct Harness {
    var machine = HubStateMachine()
    var now: UInt64 = 1_000

    @discardableResult
    mutating func send(_ input: HubInput, after elapsed: UInt64 = 1) -> HubOutput {
        now += elapsed
        return machine.handle(input, at: now)
    }

    mutating func launch(_ process: String, observing names: String..., policy: DeliveryPolicy? = nil) {
        if let policy { send(.policy(process: process, policy: policy)) }
        send(.lifecycle(process: process, state: .active))
        for name in names { send(.observe(process: process, name: name)) }
    }

    mutating func post(_ name: String, from poster: String = "share") -> HubOutput {
        send(.post(from: poster, name: name, postedAt: now))
    }
}

private func kinds(_ output: HubOutput, for process: String) -> [HubDecision] {
    output.records.filter { $0.process == process && $0.kind != .posted }.map(\.kind)
}

@Suite struct HubStateMachineTests {
    @Test func activeObserverReceivesAtOnceWithThePostTime() {
        var hub = Harness()
        hub.launch("app", observing: "didSave")
        let output = hub.send(.post(from: "share", name: "didSave", postedAt: 42))
        #expect(output.deliveries == [HubDelivery(process: "app", name: "didSave", poster: "share", postedAt: 42, at: hub.now)])
        #expect(output.records.map(\.kind) == [.posted, .delivered])
    }

    @Test func onlyObserversOfTheNameReceive() {
        var hub = Harness()
        hub.launch("app", observing: "didSave")
        hub.launch("watch", observing: "other")
        #expect(hub.post("didSave").deliveries.map(\.process) == ["app"])
    }

    @Test func posterReceivesItsOwnPostMarkedAsOwn() {
        var hub = Harness()
        hub.launch("app", observing: "didSave")
        let delivery = hub.post("didSave", from: "app").deliveries.first
        #expect(delivery?.process == "app")
        #expect(delivery?.isOwnPost == true)
    }

    @Test func backgroundProcessStillReceives() {
        var hub = Harness()
        hub.launch("app", observing: "didSave")
        hub.send(.lifecycle(process: "app", state: .background))
        #expect(hub.post("didSave").deliveries.map(\.process) == ["app"])
    }

    @Test func lateObserverGetsNoReplay() {
        var hub = Harness()
        hub.send(.lifecycle(process: "app", state: .active))
        #expect(hub.post("didSave").deliveries.isEmpty)
        let observed = hub.send(.observe(process: "app", name: "didSave"))
        #expect(observed.deliveries.isEmpty)
        #expect(observed.records.map(\.kind) == [.observed])
        #expect(hub.post("didSave").deliveries.count == 1)
    }

    @Test func unobservedProcessReceivesNothing() {
        var hub = Harness()
        hub.launch("app", observing: "didSave")
        hub.send(.unobserve(process: "app", name: "didSave"))
        #expect(hub.post("didSave").deliveries.isEmpty)
    }

    @Test func coalescePolicyDeliversEachDistinctNameOnceAtResume() {
        var hub = Harness()
        hub.launch("app", observing: "a", "b", policy: .coalesce)
        hub.send(.lifecycle(process: "app", state: .suspended))
        let first = hub.send(.post(from: "share", name: "a", postedAt: 10))
        let second = hub.send(.post(from: "share", name: "b", postedAt: 11))
        let third = hub.send(.post(from: "share", name: "a", postedAt: 12))
        #expect(first.deliveries.isEmpty && second.deliveries.isEmpty && third.deliveries.isEmpty)
        #expect(kinds(first, for: "app") == [.queued])
        #expect(kinds(third, for: "app") == [.coalesced])
        let resumed = hub.send(.lifecycle(process: "app", state: .active))
        #expect(resumed.deliveries.map(\.name) == ["a", "b"])
        #expect(resumed.deliveries.map(\.postedAt) == [10, 11])
    }

    @Test func queuePolicyDeliversEveryPostInOrderAtResume() {
        var hub = Harness()
        hub.launch("app", observing: "a", "b", policy: .queue)
        hub.send(.lifecycle(process: "app", state: .suspended))
        for name in ["a", "b", "a"] {
            #expect(kinds(hub.post(name), for: "app") == [.queued])
        }
        let resumed = hub.send(.lifecycle(process: "app", state: .background))
        #expect(resumed.deliveries.map(\.name) == ["a", "b", "a"])
        #expect(hub.send(.lifecycle(process: "app", state: .active)).deliveries.isEmpty)
    }

    @Test func dropPolicyLosesPostsWhileSuspended() {
        var hub = Harness()
        hub.launch("app", observing: "a", policy: .drop)
        hub.send(.lifecycle(process: "app", state: .suspended))
        #expect(kinds(hub.post("a"), for: "app") == [.droppedWhileSuspended])
        #expect(hub.send(.lifecycle(process: "app", state: .active)).deliveries.isEmpty)
        #expect(hub.post("a").deliveries.count == 1)
    }

    @Test func processThatStopsRunningLosesItsObserversAndWhatWasHeld() {
        var hub = Harness()
        hub.launch("app", observing: "a", policy: .queue)
        hub.send(.lifecycle(process: "app", state: .suspended))
        _ = hub.post("a")
        let killed = hub.send(.lifecycle(process: "app", state: .notRunning))
        #expect(kinds(killed, for: "app") == [.droppedNotRunning])
        #expect(hub.machine.observers(of: "a").isEmpty)
        let whileDead = hub.post("a")
        #expect(whileDead.deliveries.isEmpty)
        #expect(kinds(whileDead, for: "app") == [.droppedNotRunning])
    }

    @Test func relaunchedProcessGetsNoReplayAndMustObserveAgain() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.send(.lifecycle(process: "app", state: .notRunning))
        _ = hub.post("a")
        let relaunched = hub.send(.lifecycle(process: "app", state: .active))
        #expect(relaunched.deliveries.isEmpty)
        let beforeObserving = hub.post("a")
        #expect(beforeObserving.deliveries.isEmpty)
        #expect(kinds(beforeObserving, for: "app").isEmpty)
        hub.send(.observe(process: "app", name: "a"))
        #expect(hub.post("a").deliveries.count == 1)
    }

    @Test func observeFromProcessNotRunningIsIgnoredAndRecorded() {
        var hub = Harness()
        let output = hub.send(.observe(process: "ghost", name: "a"))
        #expect(output.records.map(\.kind) == [.observeIgnored])
        #expect(hub.post("a").deliveries.isEmpty)
    }

    @Test func dropFaultDropsUntilItsDeadline() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.launch("watch", observing: "a")
        hub.send(.dropNotifications(to: "app", until: hub.now + 100))
        let during = hub.post("a")
        #expect(during.deliveries.map(\.process) == ["watch"])
        #expect(kinds(during, for: "app") == [.droppedByFault])
        hub.now += 100
        #expect(hub.post("a").deliveries.map(\.process) == ["app", "watch"])
    }

    @Test func delayFaultReleasesAtTickAfterItsTime() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.send(.delayNotifications(to: "app", by: 50))
        let posted = hub.send(.post(from: "share", name: "a", postedAt: 7))
        #expect(posted.deliveries.isEmpty)
        #expect(kinds(posted, for: "app") == [.delayed])
        let postTime = hub.now
        #expect(hub.machine.nextDeadline == postTime + 50)
        #expect(hub.send(.tick, after: 49).deliveries.isEmpty)
        let released = hub.send(.tick, after: 1)
        #expect(released.deliveries == [HubDelivery(process: "app", name: "a", poster: "share", postedAt: 7, at: postTime + 50)])
        #expect(hub.machine.nextDeadline == nil)
        hub.send(.delayNotifications(to: "app", by: 0))
        #expect(hub.post("a").deliveries.count == 1)
    }

    @Test func delayedDeliveryFollowsTheStateAtRelease() {
        var hub = Harness()
        hub.launch("app", observing: "a", policy: .coalesce)
        hub.send(.delayNotifications(to: "app", by: 10))
        _ = hub.post("a")
        hub.send(.lifecycle(process: "app", state: .suspended))
        let released = hub.send(.tick, after: 20)
        #expect(released.deliveries.isEmpty)
        #expect(kinds(released, for: "app") == [.queued])
        #expect(hub.send(.lifecycle(process: "app", state: .active)).deliveries.map(\.name) == ["a"])
    }

    @Test func delayedDeliveryToProcessThatDiedIsDropped() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.send(.delayNotifications(to: "app", by: 10))
        _ = hub.post("a")
        let died = hub.send(.lifecycle(process: "app", state: .notRunning))
        #expect(kinds(died, for: "app") == [.droppedNotRunning])
        hub.send(.lifecycle(process: "app", state: .active))
        hub.send(.observe(process: "app", name: "a"))
        #expect(hub.send(.tick, after: 20).deliveries.isEmpty)
    }

    @Test func deliveriesFollowRegistrationOrder() {
        var hub = Harness()
        for process in ["watch", "app", "action"] { hub.launch(process, observing: "a") }
        #expect(hub.post("a").deliveries.map(\.process) == ["watch", "app", "action"])
    }
}

/// `hold` / `release`: the runner's way to make a notification arrive after the receiver's next steps
/// (a `hold-notifications` fault) and to start the children of `parallel` together.
@Suite struct HubHoldTests {
    @Test func aHeldProcessGetsItsPostsInOrderWhenTheLastHoldIsReleased() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.send(.hold(process: "app"))
        hub.send(.hold(process: "app"))
        let first = hub.send(.post(from: "share", name: "a", postedAt: 1))
        #expect(first.deliveries.isEmpty && kinds(first, for: "app") == [.held])
        _ = hub.send(.post(from: "share", name: "a", postedAt: 2))
        #expect(hub.send(.release(process: "app")).deliveries.isEmpty, "one hold is still on")
        let released = hub.send(.release(process: "app"))
        #expect(released.deliveries.map(\.postedAt) == [1, 2])
        #expect(hub.post("a").deliveries.count == 1, "no longer held")
    }

    /// Posted while the process ran, a held post had reached it: suspended since, it handles it when it
    /// resumes, even with `delivery: drop` (which is for posts that come while it is suspended).
    @Test func whatIsHeldForAProcessSuspendedSinceWaitsForItsResume() {
        var hub = Harness()
        hub.launch("app", observing: "a", policy: .drop)
        hub.send(.hold(process: "app"))
        _ = hub.post("a")
        hub.send(.lifecycle(process: "app", state: .suspended))
        let released = hub.send(.release(process: "app"))
        #expect(released.deliveries.isEmpty && kinds(released, for: "app") == [.queued])
        #expect(kinds(hub.post("a"), for: "app") == [.droppedWhileSuspended], "a post while suspended follows the policy")
        let resumed = hub.send(.lifecycle(process: "app", state: .active))
        #expect(resumed.deliveries.map(\.process) == ["app"], "the held one, once")
    }

    @Test func aProcessThatStopsRunningLosesWhatWasHeldAndIsHeldNoMore() {
        var hub = Harness()
        hub.launch("app", observing: "a")
        hub.send(.hold(process: "app"))
        _ = hub.post("a")
        let stopped = hub.send(.lifecycle(process: "app", state: .notRunning))
        #expect(kinds(stopped, for: "app") == [.droppedNotRunning])
        hub.launch("app", observing: "a")
        #expect(hub.post("a").deliveries.map(\.process) == ["app"])
        #expect(hub.send(.release(process: "app")).deliveries.isEmpty, "a release with no hold changes nothing")
    }
}
