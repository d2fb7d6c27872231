/// Every object ever committed to one store, for judging counts: a count marks the objects it holds by
/// their trace numbers (`TraceNumbers`, found once per count for every checker), so whether it holds an
/// object of the store costs no lookup of that object's id (a long run's counts hold a thousand ids each).
struct CountedObjects {
    /// By object number: the object's history in the store (nil for one never committed there).
    private let histories: [ObjectHistory?]
    private let everDeleted: [Bool]
    /// By object number: the count that last marked it (`stamp`).
    private var marks: [Int]
    private var stamp = 0

    init(store: String, oracle: CommitOracle) {
        histories = oracle.storeIndex(of: store).map { oracle.histories(store: $0) } ?? []
        let deleted = oracle.deletedIDs[store] ?? []
        everDeleted = histories.map { $0.map { deleted.contains($0.id) } ?? false }
        marks = Array(repeating: 0, count: histories.count)
    }

    /// The history of object `number`, which was committed to the store.
    func history(_ number: Int) -> ObjectHistory { histories[number]! }

    /// Marks the objects of a count's ids (numbered, nil for one no commit wrote) as the current count's
    /// (forgetting the previous count's); returns the numbers of those committed to the store, each once,
    /// in the order of the ids.
    mutating func mark(_ numbers: [Int?]) -> [Int] {
        stamp += 1
        var marked: [Int] = []
        for number in numbers {
            guard let number, number < histories.count, histories[number] != nil, marks[number] != stamp else { continue }
            marks[number] = stamp
            marked.append(number)
        }
        return marked
    }

    /// Whether the current count holds object `number`.
    func isMarked(_ number: Int) -> Bool { marks[number] == stamp }

    /// Whether some commit deleted object `number` from the store.
    func wasDeleted(_ number: Int) -> Bool { everDeleted[number] }
}
