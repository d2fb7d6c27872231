import Basics
import Foundation
import Testing
import Trace
@testable import Agent

/// Two agents on one store and one in-process notification bus: what a save in one does to the other.
@Suite struct AgentNotificationTests {
    private func titles(_ harness: AgentHarness, _ name: String) throws -> [String] {
        try harness.events(of: name).compactMap { event -> String? in
            guard case .observed(let observation) = event.kind, case .string(let title)? = observation.values["title"] else { return nil }
            return title
        }
    }

    /// `deliveries` makes the agent handle what was delivered before the step, as the runner asks:
    /// the share's save reaches the app's refresh before its read.
    @Test func aDeliveredSaveNotificationRefreshesBeforeTheNextStep() throws {
        let harness = try AgentHarness()
        try harness.start("app") { $0.refresh = .staleness; $0.staleness = .interval(.zero) }
        try harness.start("share")
        harness.send("app", .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)]))
        let ref = try #require(harness.send("app", .save).inserted["n1"])
        harness.send("app", .read(id: "n1", expectation: nil, timing: .now))
        harness.send("share", .update(id: "n1", values: ["title": .string("B")]), ids: ["n1": ref])
        harness.send("share", .save)
        // The app received its own save's notification and the share's: two.
        harness.send("app", .read(id: "n1", expectation: .values(["title": .string("B")]), timing: .now), deliveries: 2)
        #expect(try titles(harness, "app") == ["A", "B"])
        let reasons = try harness.events(of: "app").compactMap { event -> RefreshReason? in
            if case .refreshStarted(let refresh) = event.kind { refresh.reason } else { nil }
        }
        #expect(reasons == [.darwin, .darwin])
    }

    /// At the default staleness (-1) the refresh refills from the row cache: the app keeps showing A.
    @Test func infiniteStalenessKeepsTheOldValueAfterTheRefresh() throws {
        let harness = try AgentHarness()
        try harness.start("app") { $0.refresh = .staleness }
        try harness.start("share")
        harness.send("app", .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)]))
        let ref = try #require(harness.send("app", .save).inserted["n1"])
        harness.send("app", .read(id: "n1", expectation: nil, timing: .now))
        harness.send("share", .update(id: "n1", values: ["title": .string("B")]), ids: ["n1": ref])
        harness.send("share", .save)
        harness.send("app", .read(id: "n1", expectation: .values(["title": .string("B")]), timing: .now), deliveries: 2)
        #expect(try titles(harness, "app") == ["A", "A"])
        #expect(try harness.checks(of: "app").map(\.passed) == [false])
    }

    /// With the trigger `activation`, notifications are recorded but refresh nothing.
    @Test func notificationsRefreshOnlyWithTheDarwinTrigger() throws {
        let harness = try AgentHarness()
        try harness.start("app") { $0.refresh = .staleness; $0.staleness = .interval(.zero); $0.trigger = .activation }
        try harness.start("share")
        harness.send("share", .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)]))
        harness.send("share", .save)
        harness.send("app", .lockState, deliveries: 1)
        let events = try harness.events(of: "app")
        #expect(events.contains { if case .notificationReceived = $0.kind { true } else { false } })
        #expect(!events.contains { if case .refreshStarted = $0.kind { true } else { false } })
        harness.send("app", .becomeActive)
        #expect(try harness.events(of: "app").contains { if case .refreshStarted(let r) = $0.kind { r.reason == .activation } else { false } })
    }
}

/// `within:` is judged at its deadline, however late the last attempt runs: a notification posted after
/// the deadline waits until the check is decided, so it cannot make a late attempt pass.
@Suite struct CheckDeadlineTests {
    private func read(_ title: String) -> AgentCommand {
        .perform(.read(id: "n1", expectation: .values(["title": .string(title)]), timing: .within(.seconds(1))))
    }

    @Test func aNotificationPostedAfterTheDeadlineWaitsUntilTheCheckIsDecided() throws {
        let harness = try AgentHarness()
        try harness.start("app") { $0.refresh = .staleness; $0.staleness = .interval(.zero) }
        try harness.start("share")
        harness.send("app", .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)]))
        let ref = try #require(harness.send("app", .save).inserted["n1"])
        harness.send("app", .read(id: "n1", expectation: nil, timing: .now), deliveries: 1)
        let deadline = MonotonicClock.now()
        #expect(harness.send("app", read("B"), lastAttempt: false, checkDeadline: deadline).matched == false)
        // The share saves after the deadline; its notification reaches the app before the last attempt.
        harness.send("share", .update(id: "n1", values: ["title": .string("B")]), ids: ["n1": ref])
        harness.send("share", .save)
        let last = harness.send("app", read("B"), deliveries: 2, lastAttempt: true, checkDeadline: deadline)
        #expect(last.matched == false, "the view at the deadline still showed A")
        // Decided: the held notification is handled, and the next read sees B.
        harness.send("app", .read(id: "n1", expectation: .values(["title": .string("B")]), timing: .now))
        #expect(try harness.checks(of: "app").map(\.passed) == [false, true])
    }

    @Test func aNotificationPostedBeforeTheDeadlineCountsOnALateAttempt() throws {
        let harness = try AgentHarness()
        try harness.start("app") { $0.refresh = .staleness; $0.staleness = .interval(.zero) }
        try harness.start("share")
        harness.send("app", .insert(entity: "Note", id: "n1", values: ["title": .string("A"), "rank": .int(1), "score": .double(0)]))
        let ref = try #require(harness.send("app", .save).inserted["n1"])
        harness.send("app", .read(id: "n1", expectation: nil, timing: .now), deliveries: 1)
        harness.send("share", .update(id: "n1", values: ["title": .string("B")]), ids: ["n1": ref])
        harness.send("share", .save)
        let deadline = MonotonicClock.now()
        let last = harness.send("app", read("B"), deliveries: 2, lastAttempt: true, checkDeadline: deadline)
        #expect(last.matched == true)
    }
}
