/// The ids of one count, numbered (`TraceNumbers.object`) once, when a checker first needs them: the
/// count checker and the latency tracker both judge them by number, and a long run's counts hold a
/// thousand ids each, every one of them hashed once per lookup.
struct CountedIDs {
    let ids: [String]
    private let numbers: TraceNumbers
    private var numbered: [Int?]?

    init(_ ids: [String], numbers: TraceNumbers) {
        self.ids = ids
        self.numbers = numbers
    }

    /// By position in `ids`: the id's number, nil for one no commit wrote.
    mutating func objectNumbers() -> [Int?] {
        if let numbered { return numbered }
        let result = ids.map { numbers.object($0) }
        numbered = result
        return result
    }
}
