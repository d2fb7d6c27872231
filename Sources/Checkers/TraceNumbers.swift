import Trace

/// The processes and committed objects of one trace, numbered once, so the oracle, the read checker and
/// the latency tracker keep what they know of each in arrays at its number: a read cost five lookups of
/// strings (its process's name twice, its object's id three times), now one of its object's id.
struct TraceNumbers {
    /// The header's processes by number, in header order (a name given twice is numbered once).
    private var processTable = NameTable()
    /// Object id to number, for every object some commit of the trace wrote (to any store).
    private var objectNumbers: [String: Int] = [:]

    init(processes: [TraceProcess]) {
        for process in processes { processTable.add(process.name) }
    }

    /// The header's processes by number.
    var processes: [String] { processTable.names }

    /// How many objects are numbered.
    var objectCount: Int { objectNumbers.count }

    /// The number of process `name`, nil for one the header does not name (the runner, the hub).
    func process(_ name: String) -> Int? { processTable.number(of: name) }

    /// The number of object `id`, nil for one no commit wrote.
    func object(_ id: String) -> Int? { objectNumbers[id] }

    /// Numbers object `id` (a committed one) if it has no number yet.
    mutating func add(object id: String) {
        if objectNumbers[id] == nil { objectNumbers[id] = objectNumbers.count }
    }
}
