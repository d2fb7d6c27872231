import Basics
import Foundation
import Trace

extension ScenarioRunner {
    /// Reads a store file (a copy just taken, or the store after a crash) and records its contents with
    /// the interval in which they were fixed: from `since` (when the copy step was sent; for a store,
    /// when this read began) to the end of this read. The checkers then expect in it every transaction
    /// committed to `store` before that interval began: the data-loss check, judged in commit order
    /// from the trace, never here.
    func verify(_ url: URL, label: String, reason: VerificationReason, store: String, since: UInt64? = nil) {
        let start = since ?? time.reading()
        guard FileManager.default.fileExists(atPath: url.path) else {
            record(.verified(VerificationRecord(
                store: label, source: store, reason: reason, unreadable: "the file \(url.lastPathComponent) does not exist")),
                start: start)
            return
        }
        do {
            let snapshot = try contents(of: url, as: label, namedAfter: store)
            record(.verified(VerificationRecord(store: label, source: store, reason: reason, contents: snapshot)), start: start)
        } catch {
            record(.verified(VerificationRecord(
                store: label, source: store, reason: reason, unreadable: "it could not be read: \(error)")), start: start)
        }
    }
}
