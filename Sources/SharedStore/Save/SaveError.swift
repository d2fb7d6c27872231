/// A save that failed; nothing was written.
///
/// A struct around a kind the store keeps to itself, as `StoreError` is: a new kind of failure adds a
/// `Code`, and breaks no code that branches on `code`.
public struct SaveError: Error, Sendable, CustomStringConvertible {
    /// What failed. More codes may come: a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ name: String) { description = name }

        /// Optimistic-locking or uniqueness conflicts under merge policy `error` (Core Data's 133020, 133021).
        public static let conflicts = Code("conflicts")
        /// The store is read-only to this process (opened read-only, or the history-tracking trap).
        public static let readOnly = Code("read-only")
        /// A model or object error (unknown entity, type mismatch, a delete rule or a required relationship).
        public static let store = Code("store")
        /// SQLite failed (`.busy` past the busy timeout, I/O...).
        public static let sqlite = Code("sqlite")
    }

    /// The failures a save tells apart, with what each carries.
    enum Kind: Sendable {
        case conflicts([SaveConflict])
        case readOnly(reason: String)
        case store(StoreError)
        case sqlite(SQLiteError)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Conflicts under merge policy `error`.
    static func conflicts(_ conflicts: [SaveConflict]) -> SaveError { SaveError(.conflicts(conflicts)) }
    /// The store is read-only to this process.
    static func readOnly(reason: String) -> SaveError { SaveError(.readOnly(reason: reason)) }
    /// A model or object error.
    static func store(_ error: StoreError) -> SaveError { SaveError(.store(error)) }
    /// SQLite failed.
    static func sqlite(_ error: SQLiteError) -> SaveError { SaveError(.sqlite(error)) }

    /// What failed.
    public var code: Code {
        switch kind {
        case .conflicts: .conflicts
        case .readOnly: .readOnly
        case .store: .store
        case .sqlite: .sqlite
        }
    }

    /// The conflicts that failed the save (code `conflicts`); empty for any other failure.
    public var conflicts: [SaveConflict] {
        if case .conflicts(let conflicts) = kind { conflicts } else { [] }
    }

    /// The store's own error underneath (code `store`): which object, and why.
    public var storeError: StoreError? {
        if case .store(let error) = kind { error } else { nil }
    }

    /// SQLite's own error underneath: the failure's (code `sqlite`), or the store error's.
    public var sqliteError: SQLiteError? {
        switch kind {
        case .sqlite(let error): error
        case .store(let error): error.sqliteError
        default: nil
        }
    }

    /// Why the store is read-only to this process (code `readOnly`).
    public var reason: String? {
        if case .readOnly(let reason) = kind { reason } else { nil }
    }

    public var description: String {
        switch kind {
        case .conflicts(let conflicts):
            "save failed with \(conflicts.count) optimistic-locking conflict(s): "
                + conflicts.map(\.description).joined(separator: "; ")
        case .readOnly(let reason): "save failed: the store is read-only to this process: \(reason)"
        case .store(let error): "save failed: \(error)"
        case .sqlite(let error): "save failed: \(error)"
        }
    }
}
