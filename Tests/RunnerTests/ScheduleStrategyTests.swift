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

    /// `run --deterministic` takes each alternative as often as its weight says; `explore`'s random
    /// strategy ignores the weights (it looks for what real time rarely does).
    @Test func aWeightedChoiceIsTakenAsOftenAsItsWeightSays() {
        let rare = ChoicePoint(kind: .deliverEarly, count: 2, actors: ["runner", "app"], weights: [30_000, 970_000])
        func late(weighted: Bool) -> Int {
            var strategy = SeededStrategy(random: SeededRandom(seed: 3), weighted: weighted)
            return (0..<10_000).count { _ in strategy.choose(rare) == 0 }
        }
        #expect((200...400).contains(late(weighted: true)), "about 3 in 100")
        #expect((4_700...5_300).contains(late(weighted: false)), "uniform")
        var never = SeededStrategy(random: SeededRandom(seed: 3), weighted: true)
        let certain = ChoicePoint(kind: .deliverEarly, count: 2, actors: ["runner", "app"], weights: [0, 1])
        #expect((0..<100).allSatisfy { _ in never.choose(certain) == 1 })
    }

    /// How often a notification is still on its way: all at once, half at the median, 1 in 100 at the 99th
    /// percentile, none from `delivery` on, falling all the way.
    @Test func aDeliveryIsLessOftenLateTheLaterTheStepActs() {
        let costs = CostModel.measured
        #expect(costs.lateDelivery(after: 0) == 1_000_000)
        #expect(costs.lateDelivery(after: costs.deliveryMedian) == 500_000)
        #expect(costs.lateDelivery(after: costs.deliveryP99) == 10_000)
        #expect(costs.lateDelivery(after: costs.delivery) == 0)
        let gaps: [UInt64] = stride(from: 0, through: 6_000_000, by: 100_000).map { $0 }
        let odds = gaps.map(costs.lateDelivery(after:))
        #expect(zip(odds, odds.dropFirst()).allSatisfy { $0 >= $1 })
        #expect((20_000...35_000).contains(costs.lateDelivery(after: 2_700_000)), "a commit's cost after the post: \(costs.lateDelivery(after: 2_700_000))")
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
