import Synchronization

/// A string interned process-wide as a small number: equal strings, equal numbers.
///
/// For names copied into many values (a store identifier into every object ID, an entity and an
/// attribute name into every attribute key): copying a number costs nothing, where copying a `String`
/// checks whether it must retain a buffer, and long ones do, atomically.
struct InternedString: Hashable, Sendable {
    let index: UInt32

    init(_ string: String) {
        index = InternTable.shared.intern(string)
    }

    var string: String { InternTable.shared.string(index) }
}

/// Every string interned in this process (store identifiers and model names: a few per store opened;
/// a standby agent that serves a long `explore` interns each run's store identifier, some tens of bytes
/// a run, which is never worth the bookkeeping of forgetting them).
private final class InternTable: Sendable {
    static let shared = InternTable()

    private struct Tables {
        var strings: [String] = []
        var indices: [String: UInt32] = [:]
    }

    /// Interned strings are `Sendable` and may be made or read on any thread.
    private let tables = Mutex(Tables())

    func intern(_ string: String) -> UInt32 {
        tables.withLock { tables in
            if let index = tables.indices[string] { return index }
            let index = UInt32(tables.strings.count)
            tables.strings.append(string)
            tables.indices[string] = index
            return index
        }
    }

    func string(_ index: UInt32) -> String {
        tables.withLock { $0.strings[Int(index)] }
    }
}
