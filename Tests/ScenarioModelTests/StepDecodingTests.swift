import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// Every action and control step of the contract decodes to its `Step` case, in every written form.
@Suite struct StepDecodingTests {
    private func steps(_ text: String) throws -> [ScenarioStep] {
        try Fixture.scenario(Fixture.yaml(steps: text)).steps
    }

    @Test func lifecycleActionsDecodeBareOrWithTrue() throws {
        let decoded = try steps("""
              - app: launch
              - app: { exit: true }
              - app: crash
              - app: background
              - app: suspend
              - app: resume
              - app: foreground
              - app: terminate
              - app: { observe: true }
            """)
        #expect(decoded.map(\.step) == [.launch, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate, .observe])
        #expect(decoded.allSatisfy { $0.process == "app" && $0.expectError == nil })
    }

    @Test func objectAndContextActionsDecode() throws {
        let decoded = try steps("""
              - app: { insert: Note, id: n1, set: { title: A, body: null, rank: 3, score: 2.5, pinned: true, created: 2024-05-01, uid: E621E1F8-C36C-495A-93FC-0C247A3E6E5F } }
              - app: { insert: Tag, id: t1, set: { name: work } }
              - app: { update: n1, set: { title: "B", created: "2024-05-01T12:00:00Z" } }
              - app: { relate: n1, to: t1, via: tags }
              - app: { unrelate: t1, from: n1, via: note }
              - app: save
              - app: rollback
              - app: reset
              - app: { fetch: Note, where: "rank > 2 AND pinned == true", sort: "-rank, title" }
              - app: refresh
              - app: { refresh: n1, merge: false }
              - app: { refresh: n1 }
              - app: run-refresh
              - app: { delete: n1 }
            """)
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let may1 = try #require(Value.parseDate("2024-05-01"))
        #expect(decoded.map(\.step) == [
            .insert(entity: "Note", id: "n1", values: [
                "title": .string("A"), "body": .null, "rank": .int(3), "score": .double(2.5), "pinned": .bool(true),
                "created": .date(may1), "uid": .uuid(uuid),
            ]),
            .insert(entity: "Tag", id: "t1", values: ["name": .string("work")]),
            .update(id: "n1", values: ["title": .string("B"), "created": .date(may1.addingTimeInterval(12 * 3_600))]),
            .relate(id: "n1", to: "t1", via: "tags"),
            .unrelate(id: "t1", from: "n1", via: "note"),
            .save, .rollback, .reset,
            .fetch(entity: "Note",
                   predicate: .and([.comparison(attribute: "rank", op: .greater, value: .int(2)),
                                    .comparison(attribute: "pinned", op: .equal, value: .bool(true))]),
                   sort: [SortKey(attribute: "rank", ascending: false), SortKey(attribute: "title")]),
            .refreshAll,
            .refresh(id: "n1", mergeChanges: false),
            .refresh(id: "n1", mergeChanges: true),
            .runRefresh,
            .delete(id: "n1"),
        ])
    }

    @Test func batchGenerationAndWriteLockActionsDecode() throws {
        let decoded = try steps("""
              - app: { batch-insert: Note, count: 1000, set: { title: x } }
              - app: { batch-update: Note, where: "rank > 2", set: { pinned: true } }
              - app: { batch-update: Note, set: { pinned: false } }
              - app: { batch-delete: Note, where: "title BEGINSWITH 'x'" }
              - app: { pin-generation: current }
              - app: pin-generation
              - app: unpin-generation
              - share: { begin-write: true }
              - share: end-write
            """)
        #expect(decoded.map(\.step) == [
            .batchInsert(entity: "Note", count: 1000, values: ["title": .string("x")]),
            .batchUpdate(entity: "Note", predicate: .comparison(attribute: "rank", op: .greater, value: .int(2)),
                         values: ["pinned": .bool(true)]),
            .batchUpdate(entity: "Note", predicate: nil, values: ["pinned": .bool(false)]),
            .batchDelete(entity: "Note", predicate: .comparison(attribute: "title", op: .beginsWith, value: .string("x"))),
            .pinGeneration(from: nil), .pinGeneration(from: nil), .unpinGeneration, .beginWrite, .endWrite,
        ])
    }

    @Test func historyNotificationFileAndSyncActionsDecode() throws {
        let decoded = try steps("""
              - app: merge-history
              - app: purge-history
              - app: { purge-history: consumed-by-all }
              - app: { purge-history: { older-than: 7d } }
              - app: { post: notes-changed }
              - app: checkpoint
              - app: { checkpoint: true, expect-error: busy }
              - app: { copy-store: backup, with-wal: false }
              - app: { copy-store: full }
              - app: { open-copy: backup }
              - app: sync
              - app: leech
            """)
        #expect(decoded.map(\.step) == [
            .mergeHistory, .purgeHistory(policy: nil), .purgeHistory(policy: .consumedByAll),
            .purgeHistory(policy: .olderThan(.days(7))), .post(name: "notes-changed"), .checkpoint, .checkpoint,
            .copyStore(name: "backup", withWAL: false), .copyStore(name: "full", withWAL: true),
            .openCopy(name: "backup"), .sync, .leech,
        ])
        #expect(decoded[6].expectError == .busy)
    }

    @Test func checksDecodeWithTheirTiming() throws {
        let decoded = try steps("""
              - app: { insert: Note, id: n1 }
              - app: { read: n1, expect: { title: B }, within: 200ms }
              - app: { read: n1, expect: { title: A }, now: true }
              - app: { read: n1 }
              - app: { read: n1, expect: absent, now: false }
              - app: { count: Note, expect: 3, within: 1s }
              - app: { count: Note, expect: 0, where: "title CONTAINS 'x' OR body == nil", now: true }
            """)
        #expect(decoded.dropFirst().map(\.step) == [
            .read(id: "n1", expectation: .values(["title": .string("B")]), timing: .within(.milliseconds(200))),
            .read(id: "n1", expectation: .values(["title": .string("A")]), timing: .now),
            .read(id: "n1", expectation: nil, timing: .within(.seconds(1))),
            .read(id: "n1", expectation: .absent, timing: .within(.seconds(1))),
            .count(entity: "Note", expected: 3, predicate: nil, timing: .within(.seconds(1))),
            .count(entity: "Note", expected: 0,
                   predicate: .or([.comparison(attribute: "title", op: .contains, value: .string("x")),
                                   .comparison(attribute: "body", op: .equal, value: .null)]),
                   timing: .now),
        ])
    }

    @Test func everyExpectedErrorDecodes() throws {
        let decoded = try steps(ErrorKind.allCases.filter(\.isExpectable).map { "  - app: { save: true, expect-error: \($0.rawValue) }" }
            .joined(separator: "\n"))
        #expect(decoded.map(\.expectError) == ErrorKind.allCases.filter(\.isExpectable))
    }

    @Test func controlStepsDecode() throws {
        let decoded = try steps("""
              - sleep: 50ms
              - parallel: [ { app: save }, { share: { save: true, expect-error: conflict } } ]
              - clock: { advance: 8d }
              - workload: { processes: [app, share], entity: Note, mix: { insert: 1, update: 3, delete: 1, read: 5 }, rate: 500/s, duration: 2s, keys: 100 }
              - workload: { processes: app, entity: Note, rate: 20/100ms, duration: 1s }
              - fault: { drop-notifications: app, for: 1s }
              - fault: { delay-notifications: app, by: 20ms }
              - fault: { crash: share, during: save }
              - fault: { hold-notifications: app }
            """)
        let line = Fixture.firstStepLine + 1
        #expect(decoded.map(\.step) == [
            .sleep(.milliseconds(50)),
            .parallel([
                ScenarioStep(location: .init(file: Fixture.file, line: line, column: 19), process: "app", step: .save),
                ScenarioStep(location: .init(file: Fixture.file, line: line, column: 34), process: "share", step: .save,
                             expectError: .conflict),
            ]),
            .advanceClock(by: .days(8)),
            .workload(Workload(processes: ["app", "share"], entity: "Note", mix: .standard, rate: 500,
                               duration: .seconds(2), keys: 100)),
            .workload(Workload(processes: ["app"], entity: "Note", mix: .standard, rate: 200, duration: .seconds(1),
                               keys: 100)),
            .fault(.dropNotifications(process: "app", duration: .seconds(1))),
            .fault(.delayNotifications(process: "app", delay: .milliseconds(20))),
            .fault(.crash(process: "share", during: .save)),
            .fault(.holdNotifications(process: "app")),
        ])
        #expect(decoded.allSatisfy { $0.process == nil })
    }

    @Test func twoProcessesMayInsertTheSameId() throws {
        let decoded = try steps("""
              - app: { insert: Note, id: n1, set: { title: phone } }
              - share: { insert: Note, id: n1, set: { title: watch } }
            """)
        #expect(decoded.count == 2)
    }
}
