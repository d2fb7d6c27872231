import Basics
@testable import Runner
import ScenarioModel
import Testing

/// The deterministic mode's choices without processes: strategies, and where the steps they add are written.
@Suite struct ScheduleStrategyTests {
    static let point = ChoicePoint(kind: .deliverEarly, count: 2, actors: ["runner", "app"])

    @Test func asWrittenAlwaysTakesTheFirstAlternative() {
        let strategy = AsWrittenStrategy()
        #expect((0..<10).map { _ in strategy.choose(Self.point) } == Array(repeating: 0, count: 10))
    }

    @Test func aPrefixIsFollowedThenTheFirstAlternative() {
        var strategy = PrefixStrategy(prefix: [1, 1, 5])
        let order = ChoicePoint(kind: .parallelOrder, count: 3, actors: ["a", "b", "c"])
        #expect([strategy.choose(Self.point), strategy.choose(Self.point), strategy.choose(order), strategy.choose(Self.point)]
            == [1, 1, 2, 0], "an alternative past the end is clamped to the last")
    }

    @Test func seededChoicesAreAFunctionOfTheSeedAndTakeEveryAlternative() {
        func draw(_ seed: UInt64) -> [Int] {
            var strategy = SeededStrategy(random: SeededRandom(seed: seed))
            return (0..<64).map { _ in strategy.choose(Self.point) }
        }
        #expect(draw(7) == draw(7))
        #expect(draw(7) != draw(8))
        #expect(Set(draw(7)) == [0, 1])
    }

    @Test func pctTakesTheHighestRankedActorUntilAChangePointDemotesIt() {
        func draw(_ seed: UInt64, depth: Int) -> [Int] {
            var strategy = PCTStrategy(seed: seed, depth: depth, horizon: 20)
            return (0..<20).map { _ in strategy.choose(Self.point) }
        }
        // Depth 1: no change point, one actor always wins.
        for seed in UInt64(1)...20 { #expect(Set(draw(seed, depth: 1)).count == 1) }
        // Deeper: some seed switches actors, and the same seed draws the same choices.
        #expect((UInt64(1)...20).contains { Set(draw($0, depth: 3)).count == 2 })
        #expect(draw(5, depth: 3) == draw(5, depth: 3))
    }

    @Test func aStepInsertedBeforeAnEarlierOneStaysInPlaceWhateverIsInsertedLater() {
        var executed = ExecutedSteps()
        let at = SourceLocation(file: "x", line: 1, column: 1)
        func step(_ process: String, _ step: Step) -> ScenarioStep { ScenarioStep(location: at, process: process, step: step) }
        executed.append(step("app", .launch))
        executed.append(step("share", .save), executing: true)
        let saveMark = executed.routingMark
        executed.endStep()
        #expect(executed.routingMark == 2, "between steps: the next one")
        executed.append(step("app", .save))
        executed.insert(step("watch", .deliver), before: 0)
        executed.insert(ScenarioStep(location: at, process: nil, step: .fault(.holdNotifications(process: "app"))), before: saveMark)
        executed.append(step("app", .deliver))
        #expect(executed.steps.map(\.step.keyword) == ["deliver", "launch", "fault", "save", "save", "deliver"])
        #expect(executed.steps.map(\.process) == ["watch", "app", nil, "share", "app", "app"])
    }

    @Test func aLateNotificationCanRaceOnlyAStepThatDoesNotWaitOrChangeTheLifecycle() {
        #expect(VirtualEnvironment.canRaceNotifications(.read(id: "n1", expectation: nil, timing: .now)))
        #expect(VirtualEnvironment.canRaceNotifications(.save))
        #expect(!VirtualEnvironment.canRaceNotifications(.read(id: "n1", expectation: nil, timing: .within(.milliseconds(5)))))
        #expect(!VirtualEnvironment.canRaceNotifications(.suspend))
        #expect(!VirtualEnvironment.canRaceNotifications(.deliver))
    }
}
