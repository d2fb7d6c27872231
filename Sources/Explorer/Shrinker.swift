import ScenarioModel

/// Delta debugging (Zeller's ddmin) over a counterexample's explicit steps: removes chunks, halving their
/// size when none can go, until no single removable step can be removed and the counterexample still
/// fails. Steps `keep` says are fixed stay.
public struct Shrinker {
    /// Whether a candidate still shows the counterexample (it is valid and fails the same way).
    public var stillFails: ([ScenarioStep]) -> Bool
    /// Steps that must stay whatever (for a counterexample that lacks an anomaly: the file's own steps).
    public var keep: (ScenarioStep) -> Bool = { _ in false }
    /// How many candidates were run.
    public private(set) var attempts = 0

    public init(stillFails: @escaping ([ScenarioStep]) -> Bool) {
        self.stillFails = stillFails
    }

    /// The smallest list found that still fails.
    public mutating func shrink(_ steps: [ScenarioStep]) -> [ScenarioStep] {
        var current = steps
        var chunks = 2
        while true {
            let removable = current.indices.filter { !keep(current[$0]) }
            guard !removable.isEmpty else { return current }
            let size = max(1, removable.count / chunks)
            var reduced = false
            var start = 0
            while start < removable.count {
                let remove = Set(removable[start..<min(removable.count, start + size)])
                let candidate = current.indices.filter { !remove.contains($0) }.map { current[$0] }
                attempts += 1
                if stillFails(candidate) {
                    current = candidate
                    reduced = true
                    break
                }
                start += size
            }
            if reduced {
                chunks = max(chunks - 1, 2)
            } else if size == 1 {
                return current
            } else {
                chunks = min(chunks * 2, removable.count)
            }
        }
    }
}
