import Basics
import Checkers
import Testing
import Trace

@Suite("conflict, busy, read-only, expired-token, lock-held-while-suspended")
struct ErrorAnomalyTests {
    @Test func failedSaveOnAConflictIsConflictOnceThoughRecordedThrice() throws {
        var script = hostShowingN1()
        script.at(ms: 200)
        script.step("app", "app: save", line: 30)
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: 2, policy: .error, outcome: .failed)))
        script.record("app", .saveFailed(ErrorRecord(kind: .conflict, message: "optimistic locking failure")))
        script.record("app", .error(ErrorRecord(kind: .conflict, message: "save failed")))
        script.endStep("app", error: ErrorRecord(kind: .conflict, message: "save failed"))
        let result = check(script)
        #expect(kinds(result) == [.conflict])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.object == "n1")
        #expect(anomaly.location == "Scenarios/sample.yaml:30")
        #expect(anomaly.explanation == "app's save failed at 200 ms on an optimistic-locking conflict on n1: it had version 1, the store version 2 (merge policy error).")
    }

    /// A conflict on a row deleted in the store says so (its store version is -1), and a conflict with no
    /// record of its own whose message names a constraint (a batch insert's UNIQUE failure) is called a
    /// constraint conflict, not an optimistic-locking one.
    @Test func aConflictOnADeletedRowOrAConstraintSaysWhatItIs() throws {
        var script = hostShowingN1()
        script.at(ms: 200)
        script.step("app", "app: save", line: 30)
        script.record("app", .conflict(ConflictRecord(object: "n1", cachedVersion: 1, storeVersion: -1, policy: .error, outcome: .failed)))
        script.record("app", .saveFailed(ErrorRecord(kind: .conflict, message: "optimistic locking failure")))
        script.endStep("app", error: ErrorRecord(kind: .conflict, message: "save failed"))
        script.at(ms: 300)
        script.step("share", "share: batch-insert Tag", line: 31)
        script.record("share", .saveFailed(ErrorRecord(kind: .conflict, message: "UNIQUE constraint failed")))
        script.endStep("share", error: ErrorRecord(kind: .conflict, message: "UNIQUE constraint failed"))
        let explanations = check(script).anomalies.map(\.explanation)
        #expect(explanations == [
            "app's save failed at 200 ms on an optimistic-locking conflict on n1: it had version 1, another process had deleted it from the store (merge policy error).",
            "share's save failed at 300 ms on a constraint conflict: UNIQUE constraint failed.",
        ])
    }

    /// An error no step expected is the anomaly `ErrorKind.anomaly` names, of the same word as the
    /// contract says; a kind without one is listed as an unexpected error.
    @Test(arguments: ErrorKind.allCases)
    func anUnexpectedErrorIsTheAnomalyItsKindNames(kind: ErrorKind) {
        var script = hostShowingN1()
        script.at(ms: 200)
        script.step("app", "app: save", line: 30)
        script.endStep("app", error: ErrorRecord(kind: kind, message: "failed"))
        let result = check(script)
        #expect(kinds(result) == [kind.anomaly].compactMap(\.self))
        #expect(result.unexpectedErrors.map(\.kind) == (kind.anomaly == nil ? [kind] : []))
        #expect(kind.anomaly.map(\.rawValue) ?? kind.rawValue == kind.rawValue)
    }

    @Test func expectedErrorIsNotAnAnomaly() {
        var script = hostShowingN1()
        script.at(ms: 200)
        script.step("app", "app: save expect-error conflict", line: 30)
        script.record("app", .saveFailed(ErrorRecord(kind: .conflict, message: "x", expected: true)))
        script.endStep("app", error: ErrorRecord(kind: .conflict, message: "x", expected: true))
        script.step("app", "app: merge-history expect-error expired-token", line: 31)
        script.record("app", .historyFetched(HistoryFetch(tokenBefore: 3, tokenAfter: 3, transactions: 0, merged: 0, expired: true)))
        script.endStep("app", error: ErrorRecord(kind: .expiredToken, message: "", expected: true))
        #expect(check(script).anomalies.isEmpty)
    }

    @Test func everyBusySaveOfAWorkloadCounts() {
        var script = hostAndShare()
        script.at(ms: 10)
        let workload = script.step(nil, "workload: app, share", line: 40)
        script.use(step: workload, for: "app")
        script.record("app", .saveFailed(ErrorRecord(kind: .busy, message: "database is locked")))
        script.at(ms: 20)
        script.record("app", .saveFailed(ErrorRecord(kind: .busy, message: "database is locked")))
        let result = check(script)
        #expect(kinds(result) == [.busy, .busy])
        #expect(result.anomalies.first?.explanation == "app's save failed at 10 ms with SQLITE_BUSY after its busy timeout: database is locked.")
    }

    @Test func readOnlyAndExpiredTokenAndUnexpectedOtherErrors() {
        var script = hostShowingN1()
        script.at(ms: 100)
        script.step("share", "share: save", line: 50)
        script.record("share", .saveFailed(ErrorRecord(kind: .readOnly, message: "attempt to write a readonly database")))
        script.endStep("share", error: ErrorRecord(kind: .readOnly, message: "attempt to write a readonly database"))
        script.at(ms: 200)
        script.step("app", "app: merge-history", line: 51)
        script.record("app", .historyFetched(HistoryFetch(tokenBefore: 3, tokenAfter: 3, transactions: 0, merged: 0, expired: true)))
        script.endStep("app")
        script.step("app", "app: update n7", line: 52)
        script.endStep("app", error: ErrorRecord(kind: .notFound, message: "no n7"))
        let result = check(script)
        #expect(kinds(result) == [.readOnly, .expiredToken])
        #expect(result.anomalies[1].explanation == "app fetched history at 200 ms after the transactions it needed were purged (its token: 3); it merged nothing.")
        #expect(result.unexpectedErrors.map(\.kind) == [.notFound])
    }

    @Test func suspendedHoldingAWriteIsLockHeldButIdleSuspendIsNot() throws {
        var script = hostAndShare()
        script.at(ms: 50)
        script.lifecycle("app", .suspended, holdsLock: false)
        script.at(ms: 60)
        script.lifecycle("share", .suspended, holdsLock: true, lock: .beginWrite)
        let result = check(script)
        #expect(kinds(result) == [.lockHeldWhileSuspended])
        let anomaly = try #require(result.anomalies.first)
        #expect(anomaly.process == "share")
        #expect(anomaly.explanation == "share was suspended at 60 ms holding a begin-write transaction open on group:group.example.notes; iOS would kill it with 0xdead10cc, and other processes wait on the lock.")
    }

    /// A pinned read blocks no writer in WAL mode: what it holds back is the checkpoint.
    @Test func suspendedHoldingAPinnedReadSaysWhatItBlocks() throws {
        var script = hostAndShare()
        script.at(ms: 60)
        script.lifecycle("share", .suspended, holdsLock: true, lock: .pinnedRead)
        let anomaly = try #require(check(script).anomalies.first)
        #expect(anomaly.explanation.hasSuffix("meanwhile no checkpoint can reset the -wal past its snapshot (writers still commit: WAL readers block no writer)."))
    }
}
