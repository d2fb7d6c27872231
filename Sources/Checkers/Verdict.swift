import Basics
import Trace

/// Whether a run showed what its variant expected.
///
/// A run matches when every anomaly named was found (others found beside them are reported, not
/// failed); an `expect: pass` run matches only when none was found.
public struct Verdict: Sendable, Hashable {
    public var expected: Expectation
    /// How many of each anomaly kind were found.
    public var found: [AnomalyKind: Int]
    /// Kinds the variant expected that were not found, in the order it named them.
    public var missing: [AnomalyKind]
    /// Kinds found that the variant did not name (for `pass`: every kind found), and kinds found more
    /// often than their count allows.
    public var unexpected: [AnomalyKind]
    /// Kinds whose count the run broke (found too few or too many); only for `.counts`.
    public var brokenCounts: [AnomalyCount] = []
    /// How many were found of each of `brokenCounts` (in its process, when it names one).
    public var brokenFound: [Int] = []
    /// Kinds whose presence broke the run: every kind found for `pass`, kinds found more often than
    /// their count allows for `.counts`, none for a list (kinds beside the named ones are tolerated).
    public var excess: [AnomalyKind] = []
    public var matched: Bool
    /// Set when the harness could not decide the run: then it has no verdict (`matched` is false and
    /// the exit status is `undecided`), whatever the anomalies found before it stopped.
    public var harnessFailure: HarnessFailure?

    public init(expected: Expectation, anomalies: [Anomaly]) {
        self.expected = expected
        var found: [AnomalyKind: Int] = [:]
        for anomaly in anomalies { found[anomaly.kind, default: 0] += 1 }
        self.found = found
        /// How many of `count`'s kind were found (in its process only, when it names one).
        func number(_ count: AnomalyCount) -> Int {
            guard let process = count.process else { return found[count.kind] ?? 0 }
            return anomalies.lazy.filter { $0.kind == count.kind && $0.process == process }.count
        }
        switch expected {
        case .pass:
            missing = []
            unexpected = found.keys.sorted()
            excess = unexpected
            matched = found.isEmpty
        case .anomalies(let kinds):
            var seen: Set<AnomalyKind> = []
            missing = kinds.filter { found[$0] == nil && seen.insert($0).inserted }
            unexpected = found.keys.filter { !kinds.contains($0) }.sorted()
            matched = missing.isEmpty
        case .counts(let counts):
            let broken = counts.filter { !$0.admits(number($0)) }
            brokenCounts = broken
            brokenFound = broken.map(number)
            missing = broken.filter { number($0) < $0.atLeast }.map(\.kind).reduce(into: []) { kinds, kind in
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            let over = Set(broken.filter { number($0) > $0.atLeast }.map(\.kind))
            excess = over.sorted()
            unexpected = found.keys.filter { kind in over.contains(kind) || !counts.contains { $0.kind == kind } }.sorted()
            matched = broken.isEmpty
        }
    }

    /// Each broken count and what was found: `busy: 0, found 2; stale-read: 1, found 0`.
    public var brokenCountsText: String {
        zip(brokenCounts, brokenFound).map { "\($0.key): \($0.bound), found \($1)" }.joined(separator: "; ")
    }

    /// The missing kinds, comma-separated.
    public var missingText: String { missing.map(\.rawValue).joined(separator: ", ") }

    /// `stale-read ×2, busy` style list of the kinds found, in the contract's order.
    public var foundText: String {
        found.keys.sorted().map { kind in
            let count = found[kind]!
            return count == 1 ? kind.rawValue : "\(kind.rawValue) ×\(count)"
        }.joined(separator: ", ")
    }
}

/// The CLI's exit status: 0 every run matched, 1 some run did not match, 2 the harness could not decide.
public enum ExitStatus: Int32, Sendable, Hashable, Codable, Comparable {
    case matched = 0
    case notMatched = 1
    case undecided = 2

    public static func < (a: ExitStatus, b: ExitStatus) -> Bool { a.rawValue < b.rawValue }

    /// The status of one run: `undecided` when the harness failed it, else by its verdict.
    public init(verdict: Verdict?, harnessFailed: Bool = false) {
        guard let verdict, !harnessFailed, verdict.harnessFailure == nil else {
            self = .undecided
            return
        }
        self = verdict.matched ? .matched : .notMatched
    }

    /// The status of several runs: the worst of them (`undecided` over `notMatched` over `matched`);
    /// no runs at all is `undecided`.
    public static func combine(_ statuses: some Sequence<ExitStatus>) -> ExitStatus {
        var worst: ExitStatus?
        for status in statuses { worst = Swift.max(worst ?? status, status) }
        return worst ?? .undecided
    }
}

extension CheckResult {
    /// Marks the run undecided: the harness failed it, so what its trace shows is no verdict.
    public mutating func undecided(by failure: HarnessFailure) {
        verdict.matched = false
        verdict.harnessFailure = failure
    }
}
