import Foundation

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

/// Every string interned in this process (store identifiers and model names: a few per store opened,
/// never worth forgetting).
private final class InternTable: @unchecked Sendable {
    static let shared = InternTable()
    /// Guards the tables: interned strings are `Sendable` and may be made or read on any thread.
    private let lock = NSLock()
    private var strings: [String] = []
    private var indices: [String: UInt32] = [:]

    func intern(_ string: String) -> UInt32 {
        lock.withLock {
            if let index = indices[string] { return index }
            let index = UInt32(strings.count)
            strings.append(string)
            indices[string] = index
            return index
        }
    }

    func string(_ index: UInt32) -> String {
        lock.withLock { strings[Int(index)] }
    }
}
