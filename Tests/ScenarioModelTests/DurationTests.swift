import Foundation
@testable import ScenarioModel
import Testing

@Suite struct DurationTests {
    @Test(arguments: [
        ("50us", Int64(50)), ("50µs", 50), ("200ms", 200_000), ("2s", 2_000_000), ("1.5s", 1_500_000),
        ("1m", 60_000_000), ("1.5m", 90_000_000), ("1h", 3_600_000_000), ("7d", 604_800_000_000),
        ("0", 0), ("0.25ms", 250), (" 3s ", 3_000_000), ("1.0us", 1),
    ])
    func parsesEveryUnitToMicroseconds(text: String, microseconds: Int64) throws {
        #expect(try Duration(parsing: text).microseconds == microseconds)
    }

    @Test func bareNonZeroNumberNeedsAUnit() {
        #expect(throws: Duration.ParseError.missingUnit) { try Duration(parsing: "50") }
    }

    @Test(arguments: ["fast", "ms", "2 seconds", "-1s", "1..5s", ".5s", "5.s", "1e3ms", ""])
    func malformedTextIsRejected(text: String) {
        #expect(throws: Duration.ParseError.malformed) { try Duration(parsing: text) }
    }

    @Test func precisionFinerThanAMicrosecondIsRejected() {
        #expect(throws: Duration.ParseError.outOfRange) { try Duration(parsing: "0.5us") }
        #expect(throws: Duration.ParseError.outOfRange) { try Duration(parsing: "1.0000001s") }
    }

    @Test func descriptionUsesTheLargestExactUnit() {
        #expect(Duration.milliseconds(200).description == "200ms")
        #expect(Duration.microseconds(1_500).description == "1500us")
        #expect(Duration.seconds(120).description == "2m")
        #expect(Duration.days(8).description == "8d")
        #expect(Duration.zero.description == "0")
    }

    @Test func convertsToSecondsNanosecondsAndSwiftDuration() {
        let duration = Duration.milliseconds(1_500)
        #expect(duration.seconds == 1.5)
        #expect(duration.nanoseconds == 1_500_000_000)
        #expect(duration.swiftDuration == Swift.Duration.milliseconds(1_500))
    }

    @Test func encodesAsItsTextAndDecodesTextOrMicroseconds() throws {
        let data = try JSONEncoder().encode([Duration.milliseconds(200)])
        #expect(String(decoding: data, as: UTF8.self) == #"["200ms"]"#)
        #expect(try JSONDecoder().decode([Duration].self, from: Data(#"["2s", 5]"#.utf8)) == [.seconds(2), .microseconds(5)])
    }

    @Test(arguments: [("-1", Staleness.infinite), ("-5", .infinite), ("0", .interval(.zero)),
                      ("2.5", .interval(.milliseconds(2_500))), ("500ms", .interval(.milliseconds(500)))])
    func stalenessAcceptsSecondsOrADuration(text: String, staleness: Staleness) throws {
        let yaml = Fixture.yaml(steps: "  - app: launch").replacingOccurrences(
            of: "    role: host", with: "    role: host\n    staleness: \(text)")
        #expect(try Fixture.scenario(yaml).processes[0].settings.staleness == staleness)
    }

    @Test func stalenessTimeIntervalIsCoreDatas() {
        #expect(Staleness.infinite.timeInterval == -1)
        #expect(Staleness.interval(.milliseconds(2_500)).timeInterval == 2.5)
    }
}
