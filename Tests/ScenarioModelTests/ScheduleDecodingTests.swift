import Basics
@testable import ScenarioModel
import Testing

/// `schedule:`, `explore: { late-notifications: }` and `fault: { hold-notifications: }`: decoded, carried
/// to every run, and refused with a position when misused.
@Suite struct ScheduleDecodingTests {
    let after = Fixture.firstStepLine + 1

    @Test func scheduleIsSeededUnlessTheFileSaysAsWritten() throws {
        #expect(try Fixture.scenario(Fixture.yaml(steps: "  - app: launch")).schedule == .seeded)
        let written = try Fixture.scenario(Fixture.yaml(steps: "  - app: launch", after: "schedule: as-written"))
        #expect(written.schedule == .asWritten)
        #expect(written.runs().allSatisfy { $0.schedule == .asWritten }, "every run carries it")
    }

    @Test func anUnknownScheduleIsAnErrorAtItsValue() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - app: launch", after: "schedule: random"),
                               line: after, column: 11, containing: "as-written")
    }

    @Test func lateNotificationsDefaultsToTwoAndTakesZeroToSixteen() throws {
        #expect(try Fixture.scenario(Fixture.yaml(steps: "  - app: launch")).explore.lateNotifications == 2)
        let zero = try Fixture.scenario(Fixture.yaml(steps: "  - app: launch", after: "explore: { late-notifications: 0 }"))
        #expect(zero.explore.lateNotifications == 0)
        #expect(zero.explore.isEmpty, "a bound inserts no step")
        for bad in ["17", "-1", "two", "1.5", "99999999999999999999999"] {
            Fixture.expectOneError(Fixture.yaml(steps: "  - app: launch", after: "explore: { late-notifications: \(bad) }"),
                                   line: after, column: 32, containing: "late-notifications")
        }
    }

    @Test func holdNotificationsNamesADeclaredProcessAndTakesNothingElse() {
        Fixture.expectOneError(Fixture.yaml(steps: "  - fault: { hold-notifications: ap }"),
                               line: Fixture.firstStepLine, column: 34, containing: "ap")
        Fixture.expectOneError(Fixture.yaml(steps: "  - fault: { hold-notifications: app, for: 1s }"),
                               line: Fixture.firstStepLine, column: 39, containing: "for")
    }
}
