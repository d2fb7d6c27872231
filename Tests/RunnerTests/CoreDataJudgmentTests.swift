import Checkers
import Foundation
@testable import Runner
import Testing
import TestSupport
import Trace

/// The judgments where the harness must follow Core Data's documented behaviour, each end to end with
/// real agents: a held write commits at its end, a count is judged against the list the process shows,
/// an unsaved delete is the process's own edit, and a process's own Darwin notification reaches it.
@Suite(.serialized, .spawnsProcesses) struct CoreDataJudgmentTests {
    static let header = EndToEndTests.header

    func anomalies(_ outcome: RunOutcome) -> [Anomaly] { TraceChecker.check(outcome.trace).anomalies }

    func events<T>(_ outcome: RunOutcome, of process: String? = nil, _ pick: (TraceEventKind) -> T?) -> [(TraceEvent, T)] {
        outcome.trace.events.compactMap { event in
            guard process == nil || event.process == process, let value = pick(event.kind) else { return nil }
            return (event, value)
        }
    }

    /// SQLite: "RELEASE of an inner transaction does not write changes to the database file". A save
    /// inside `begin-write` is a savepoint; the commit, and its notification, happen at `end-write`.
    @Test func aSaveInsideAHeldWriteCommitsAndNotifiesAtEndWrite() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: history }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - share: launch
          - share: { begin-write: true }
          - share: { insert: Note, id: m1, set: { title: M } }
          - share: save
          - app: { count: Note, expect: 1, now: true }
          - share: end-write
          - app: { count: Note, expect: 2, within: 10s }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true])
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
        let commit = try #require(events(outcome, of: "share") { kind -> SaveCommit? in
            if case .saveCommitted(let commit) = kind { commit } else { nil }
        }.first)
        let post = try #require(events(outcome, of: "share") { kind -> NotificationRecord? in
            if case .notificationPosted(let record) = kind { record } else { nil }
        }.first)
        #expect(commit.0.step == 9, "recorded at end-write (step 9), not at the inner save (step 7)")
        #expect(post.0.step == 9)
    }

    /// What a process saved inside its held write is still its own edit until `end-write`: its own reads
    /// and counts of it are never judged against commits nobody has made yet.
    @Test func aProcesssOwnHeldSavesAreItsOwnEditsUntilEndWrite() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: { insert: Note, id: n2, set: { title: B } }
          - app: save
          - app: exit
          - share: launch
          - share: { fetch: Note }
          - share: { begin-write: true }
          - share: { update: n1, set: { title: held } }
          - share: { delete: n2 }
          - share: { insert: Note, id: m1, set: { title: M } }
          - share: save
          - share: { read: n1, expect: { title: held }, now: true }
          - share: { read: n2, expect: absent, now: true }
          - share: { count: Note, expect: 2, now: true }
          - share: end-write
          - share: { read: n1, expect: { title: held }, now: true }
          - share: { count: Note, expect: 2, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true, true, true, true])
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
    }

    /// The list on screen is what the fetch returned: a filtered list lacks the objects its `where:`
    /// leaves out, and a count of it is no missed insert.
    @Test func aCountIsJudgedAgainstTheFilteredListTheProcessFetched() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
          share: { role: share }
        steps:
          - share: launch
          - share: { insert: Note, id: n1, set: { title: low, rank: 1 } }
          - share: { insert: Note, id: n2, set: { title: high, rank: 5 } }
          - share: save
          - app: launch
          - app: { fetch: Note, where: "rank > 2" }
          - app: { count: Note, expect: 1, now: true }
          - app: { insert: Note, id: n3, set: { title: own, rank: 0 } }
          - app: save
          - app: { count: Note, expect: 2, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil, "\(outcome.harnessError.map { "\($0)" } ?? "")")
        #expect(outcome.checks.map(\.passed) == [true, true])
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
    }

    /// The same list still misses an insert that matches its `where:`.
    @Test func aFilteredListMissingAMatchingInsertIsAMissedInsert() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: share }
        steps:
          - app: launch
          - app: { fetch: Note, where: "rank > 2" }
          - share: launch
          - share: { insert: Note, id: n1, set: { title: low, rank: 1 } }
          - share: { insert: Note, id: n2, set: { title: high, rank: 5 } }
          - share: save
          - app: { count: Note, expect: 1, now: true }
        """
        let outcome = try RunHarness.single(yaml)
        let found = anomalies(outcome)
        #expect(found.filter { $0.kind == .missedInsert }.map(\.object) == ["n2"], "\(found.map(\.explanation))")
    }

    /// An object deleted and not saved is the process's own edit, like an unsaved insert or update.
    @Test func anUnsavedDeleteAtTheEndIsNotNotConverged() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { delete: n1 }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
        let view = try #require(events(outcome, of: "app") { kind -> StateSnapshot? in
            if case .finalView(let view) = kind { view } else { nil }
        }.first?.1)
        #expect(view.absent.isEmpty)
    }

    /// A Darwin notification has no sender: the poster's own observer receives it and, with
    /// `trigger: darwin`, refreshes for it like for any other. Here share posts nothing, so only app's
    /// own save notification can make app refresh and show share's B.
    @Test func aProcesssOwnSaveNotificationTriggersItsRefresh() throws {
        let yaml = """
        \(Self.header)
        processes:
          app: { role: host, refresh: staleness, staleness: 0 }
          share: { role: share, notify: false }
        steps:
          - app: launch
          - app: { insert: Note, id: n1, set: { title: A } }
          - app: save
          - app: { fetch: Note }
          - app: { read: n1, expect: { title: A }, now: true }
          - share: launch
          - share: { update: n1, set: { title: B } }
          - share: save
          - app: { insert: Note, id: n2, set: { title: mine } }
          - app: save
          - app: { read: n1, expect: { title: B }, within: 10s }
        """
        let outcome = try RunHarness.single(yaml)
        #expect(outcome.harnessError == nil)
        #expect(outcome.checks.map(\.passed) == [true, true])
        #expect(anomalies(outcome).isEmpty, "\(anomalies(outcome).map(\.explanation))")
        let received = events(outcome, of: "app") { kind -> NotificationRecord? in
            if case .notificationReceived(let record) = kind { record } else { nil }
        }
        #expect(!received.isEmpty)
        #expect(received.allSatisfy { $0.1.from == nil }, "a Darwin notification carries no sender")
    }
}
