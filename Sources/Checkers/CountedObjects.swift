/// Every object ever committed to one store, numbered, for judging counts: a count marks the objects it
/// holds by number, so whether it holds an object of the store costs no lookup of that object's id (a long
/// run's counts hold a thousand ids each, and each id was looked up three times).
struct CountedObjects {
    /// Object id to number.
    private let numbers: [String: Int]
    /// By number: the object's history in the store, and whether some commit deleted it there.
    let histories: [ObjectHistory]
    private let everDeleted: [Bool]
    /// By number: the count that last marked it (`stamp`).
    private var marks: [Int]
    private var stamp = 0

    init(store: String, oracle: CommitOracle) {
        var numbers: [String: Int] = [:]
        var histories: [ObjectHistory] = []
        let deleted = oracle.deletedIDs[store] ?? []
        for ids in (oracle.idsByEntity[store] ?? [:]).values {
            for id in ids where numbers[id] == nil {
                guard let history = oracle.history(store: store, object: id) else { continue }
                numbers[id] = histories.count
                histories.append(history)
            }
        }
        self.numbers = numbers
        self.histories = histories
        everDeleted = histories.map { deleted.contains($0.id) }
        marks = Array(repeating: 0, count: histories.count)
    }

    /// The number of `id`, if it was ever committed to the store.
    func number(of id: String) -> Int? { numbers[id] }

    /// Marks the objects of `ids` as the current count's (forgetting the previous count's); returns the
    /// numbers marked, each once, in the order of `ids`.
    mutating func mark(_ ids: [String]) -> [Int] {
        stamp += 1
        var marked: [Int] = []
        for id in ids {
            guard let number = numbers[id], marks[number] != stamp else { continue }
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
