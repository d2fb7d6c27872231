import Agent
import Basics
import Foundation
import SharedStore
import Trace

/// A copy of a store taken during the run, kept as it was (its files copied aside) and read back once
/// the run is over: the copy's step then costs what copying its files costs, as on a device, not what
/// reading every row back takes (80 ms for 20,000 rows, which let another process's delayed notification
/// arrive before the next step in real time and not in virtual time; review 97 and 98).
struct PendingVerification {
    /// The files set aside.
    let url: URL
    let label: String
    let reason: VerificationReason
    let store: String
    /// From when the copy step was sent to when its files were set aside: what the copy holds was fixed
    /// then.
    let since: UInt64
    let fixed: UInt64
    /// The step and the process the event is recorded under, as for any event of the step.
    let step: Int?
    let subject: String?
    /// The scenario ids the run knew for the store's rows then.
    let names: [ObjectRef: [String]]
    /// Where among the runner's events the verification goes.
    let position: Int
}

extension ScenarioRunner {
    /// Reads a store file (the store after a crash) and records its contents with the interval in which
    /// they were fixed: from `since` (when this read began, unless given) to the end of this read. The
    /// checkers then expect in it every transaction committed to `store` before that interval began: the
    /// data-loss check, judged in commit order from the trace, never here.
    func verify(_ url: URL, label: String, reason: VerificationReason, store: String, since: UInt64? = nil) {
        let start = since ?? time.reading()
        let record = verification(of: url, label: label, reason: reason, store: store, names: objects.names(in: store))
        self.record(.verified(record), start: start)
    }

    /// Sets the copy at `url` aside (its files copied into the sandbox) to be read back after the run
    /// (`verifyCopiesSetAside()`), recorded with the interval from `since` (the copy step was sent) to now.
    func setAside(_ url: URL, label: String, store: String, since: UInt64) {
        let aside = sandbox.root.appendingPathComponent("verify/\(pendingVerifications.count)/\(url.lastPathComponent)")
        let kept: URL
        do {
            if FileManager.default.fileExists(atPath: url.path) { try StoreFiles.copy(from: url, to: aside, includeWAL: true) }
            kept = aside
        } catch {
            // Nothing set aside: it is read in place, now.
            verify(url, label: label, reason: .copy, store: store, since: since)
            return
        }
        pendingVerifications.append(PendingVerification(
            url: kept, label: label, reason: .copy, store: store, since: since, fixed: time.reading(),
            step: currentStep?.index, subject: currentStep?.step.process, names: objects.names(in: store), position: recorder.count))
    }

    /// Reads back each copy set aside during the run, and records what it holds where and when it was fixed.
    func verifyCopiesSetAside() {
        for (inserted, pending) in pendingVerifications.enumerated() {
            let record = verification(of: pending.url, label: pending.label, reason: pending.reason, store: pending.store,
                                      names: pending.names)
            recorder.insert(.verified(record), step: pending.step, at: pending.fixed, start: pending.since,
                            as: pending.subject, position: pending.position + inserted)
        }
        pendingVerifications = []
    }

    private func verification(of url: URL, label: String, reason: VerificationReason, store: String,
                              names: [ObjectRef: [String]]) -> VerificationRecord {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return VerificationRecord(store: label, source: store, reason: reason, unreadable: "the file \(url.lastPathComponent) does not exist")
        }
        do {
            let snapshot = try contents(of: url, as: label, names: names)
            return VerificationRecord(store: label, source: store, reason: reason, contents: snapshot)
        } catch {
            return VerificationRecord(store: label, source: store, reason: reason, unreadable: "it could not be read: \(error)")
        }
    }
}
