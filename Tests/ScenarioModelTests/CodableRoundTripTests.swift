import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// The runner sends steps and settings to child processes as JSON: every kind survives the trip.
@Suite struct CodableRoundTripTests {
    private static let at = Basics.SourceLocation(file: "Scenarios/x.yaml", line: 12, column: 5)
    private static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    private static let values: [String: Value] = [
        "title": .string("A"), "rank": .int(-3), "score": .double(2.5), "pinned": .bool(true),
        "created": .date(Date(timeIntervalSinceReferenceDate: 1_234.5)), "uid": .uuid(uuid), "body": .null,
    ]
    private static let predicate = FetchPredicate.and([
        .comparison(attribute: "rank", op: .greater, value: .int(2)),
        .or([.not(.comparison(attribute: "title", op: .contains, value: .string("x"))), .constant(true)]),
    ])

    static let everyStep: [Step] = [
        .launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe,
        .insert(entity: "Note", id: "n1", values: values), .update(id: "n1", values: ["title": .string("B")]),
        .delete(id: "n1"), .relate(id: "n1", to: "t1", via: "tags"), .unrelate(id: "n1", from: "t1", via: "tags"),
        .save, .rollback, .reset,
        .fetch(entity: "Note", predicate: predicate, sort: [SortKey(attribute: "rank", ascending: false)]),
        .fetch(entity: "Note", predicate: nil, sort: []),
        .refreshAll, .refresh(id: "n1", mergeChanges: false), .runRefresh,
        .batchInsert(entity: "Note", count: 1_000, values: values),
        .batchUpdate(entity: "Note", predicate: predicate, values: ["pinned": .bool(false)]),
        .batchDelete(entity: "Note", predicate: nil),
        .pinGeneration(from: nil), .unpinGeneration, .beginWrite, .endWrite, .mergeHistory,
        .purgeHistory(policy: nil), .purgeHistory(policy: PurgePolicy.none), .purgeHistory(policy: .consumedByAll),
        .purgeHistory(policy: .ownToken), .purgeHistory(policy: .olderThan(.days(7))),
        .purgeHistory(policy: .consumedByAll, expectDeleted: 2), .purgeHistory(policy: nil, expectDeleted: 0),
        .post(name: "notes-changed"), .checkpoint, .copyStore(name: "backup", withWAL: false),
        .openCopy(name: "backup"), .sync, .leech,
        .read(id: "n1", expectation: .values(["title": .string("B")]), timing: .within(.milliseconds(200))),
        .read(id: "n1", expectation: .absent, timing: .now), .read(id: "n1", expectation: nil, timing: .defaultWithin),
        .count(entity: "Note", expected: 3, predicate: predicate, timing: .now),
        .state(id: "n1", expectation: ObjectStateExpectation(fault: true, deleted: false), timing: .now),
        .state(id: "n1", expectation: ObjectStateExpectation(registered: false), timing: .within(.milliseconds(50))),
        .sleep(.milliseconds(50)),
        .parallel([ScenarioStep(location: at, process: "app", step: .save, expectError: .conflict),
                   ScenarioStep(location: at, process: nil, step: .sleep(.microseconds(1))),
                   ScenarioStep(location: at, process: nil, step: .sequence([ScenarioStep(location: at, process: "share", step: .save)]))]),
        .advanceClock(by: .days(8)),
        .workload(Workload(processes: ["app", "share"], entity: "Note", mix: .standard, rate: 500,
                           duration: .seconds(2), keys: 100, seed: 12_384_742_332_980_870_802)),
        .fault(.dropNotifications(process: "app", duration: .seconds(1))),
        .fault(.delayNotifications(process: "app", delay: .milliseconds(20))),
        .fault(.crash(process: "share", during: .save)),
        .fault(.holdNotifications(process: "app")),
    ]

    private func roundTrip<Value: Codable & Equatable>(_ value: Value) throws -> Value {
        try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
    }

    @Test(arguments: everyStep)
    func everyStepKindRoundTrips(step: Step) throws {
        for expectError in [nil] + ErrorKind.allCases.filter(\.isExpectable).map(Optional.some) {
            let wrapped = ScenarioStep(location: Self.at, process: "app", step: step, expectError: expectError)
            #expect(try roundTrip(wrapped) == wrapped)
        }
    }

    @Test func processSettingsRoundTrip() throws {
        var settings = ProcessSettings(role: .watch)
        settings.staleness = .interval(.milliseconds(2_500))
        settings.author = .named("phone")
        settings.historyAuthors = .only(["app", "share"])
        settings.purge = .olderThan(.hours(1))
        settings.sync = .transfer(latency: .milliseconds(50))
        #expect(try roundTrip(settings) == settings)
        #expect(try roundTrip(ProcessSettings(role: .host)) == ProcessSettings(role: .host))
    }

    @Test func wholeRunsRoundTrip() throws {
        let scenario = try ScenarioLoader.parse(yaml: ContractExample.yaml, file: "Scenarios/refresh.yaml")
        #expect(try roundTrip(scenario) == scenario)
        for run in scenario.runs() {
            #expect(try roundTrip(run) == run)
        }
    }

    @Test func attributeValuesEncodeAsOneTypeKey() throws {
        let data = try JSONEncoder().encode([Value.int(3), .null])
        #expect(String(decoding: data, as: UTF8.self) == #"[{"int":3},{"null":true}]"#)
    }

    @Test func errorsRoundTripAndPrintLikeACompiler() throws {
        let error = ScenarioError(file: "Scenarios/x.yaml", line: 12, column: 5, message: "unknown key 'stalness'; did you mean 'staleness'?")
        #expect(error.description == "Scenarios/x.yaml:12:5: error: unknown key 'stalness'; did you mean 'staleness'?")
        #expect(try roundTrip(ScenarioErrors([error])) == ScenarioErrors([error]))
    }
}

/// Every step kind names itself with the language's word.
@Suite struct StepKeywordTests {
    @Test func keywordsAreTheLanguagesWords() {
        let keywords = CodableRoundTripTests.everyStep.map(\.keyword)
        let known = Set(ActionWord.names + ScenarioDecoder.controlKeywords)
        #expect(keywords.allSatisfy(known.contains))
        #expect(Step.refreshAll.keyword == "refresh" && Step.advanceClock(by: .zero).keyword == "clock")
        #expect(Step.sleep(.zero).isControl && !Step.save.isControl)
    }
}
