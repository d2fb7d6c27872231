import CSQLite

/// A primary SQLite result code, matchable in `catch` clauses and `switch` statements.
///
/// ```swift
/// do { try connection.execute("BEGIN IMMEDIATE") }
/// catch let error as SQLiteError where error.code == .busy { ... }
/// ```
/// See <https://www.sqlite.org/rescode.html>.
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code (the low 8 bits of an extended code).
    public let rawValue: Int32

    /// Creates a code from a primary or extended result code (extended codes are reduced to their primary).
    public init(rawValue: Int32) { self.rawValue = rawValue & 0xFF }

    /// `SQLITE_ERROR`: a generic error (syntax error, missing table...).
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_BUSY`: the database file is locked by another connection past the busy timeout.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict inside the same connection or shared cache.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_READONLY`: an attempt to write a read-only database.
    public static let readonly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_CONSTRAINT`: a constraint (UNIQUE, NOT NULL...) was violated.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_CORRUPT`: the file is not a valid database.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_NOTADB`: the file is not a database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_MISUSE`: the API was used incorrectly.
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_INTERRUPT`: a statement was stopped (its connection's deadline passed).
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: an I/O error.
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)

    public var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }
}

/// An error returned by SQLite, with the context needed to understand it.
///
/// `description` shows the code, the message and the SQL; statement arguments are never included.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (`.busy`, `.readonly`...), for pattern matching.
    public let code: SQLiteResultCode
    /// The extended result code (e.g. `SQLITE_BUSY_SNAPSHOT` = 517).
    public let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or a description of the misuse.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?

    /// Creates an error; `code` is derived from `extendedCode`.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = SQLiteResultCode(rawValue: extendedCode)
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(code)): \(message)"
        if let sql { text += " while executing `\(sql)`" }
        return text
    }
}

/// Lets a `catch` or `switch` match an error against a result code: `case SQLiteResultCode.busy`.
public func ~= (code: SQLiteResultCode, error: any Error) -> Bool {
    (error as? SQLiteError)?.code == code
}
