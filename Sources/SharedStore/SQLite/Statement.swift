import Basics
import CSQLite
import Foundation

/// A prepared SQL statement, finalized when released.
///
/// Bind with `bind(_:at:)` (1-based), step with `step()`, read columns with `value(at:)` or the
/// typed readers. A statement belongs to its connection and to the thread that uses it.
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    /// The SQL the statement was prepared from.
    public let sql: String
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    /// Parameters 1...64 known to hold NULL (bit `i - 1`): binding NULL to one again is skipped (a reset
    /// keeps the bindings; a new or cleared statement has all NULL). Unchecked exclusivity: a statement is
    /// confined to its connection's thread.
    @exclusivity(unchecked) private var nullParameters: UInt64 = ~0

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        self.sql = sql
        self.connection = connection
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, 0, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw connection.error(rc, sql: sql)
        }
        handle = stmt
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement so it can run again and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        nullParameters = ~0
    }

    /// Resets the statement so it can run again, keeping its bindings (for a caller that binds every
    /// parameter again).
    func rewind() {
        sqlite3_reset(handle)
    }

    /// Binds `value` to the 1-based parameter `index`.
    public func bind(_ value: Value, at index: Int32) throws(SQLiteError) {
        let rc = bindResult(value, at: index)
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
    }

    /// Binds `value`; returns SQLite's result code.
    @inline(__always)
    private func bindResult(_ value: Value, at index: Int32) -> Int32 {
        let bit: UInt64 = index >= 1 && index <= 64 ? 1 << UInt64(index - 1) : 0
        if case .null = value {
            if nullParameters & bit != 0 { return SQLITE_OK }
            let rc = sqlite3_bind_null(handle, index)
            if rc == SQLITE_OK { nullParameters |= bit }
            return rc
        }
        nullParameters &= ~bit
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .int(let i): rc = sqlite3_bind_int64(handle, index, i)
        case .bool(let b): rc = sqlite3_bind_int64(handle, index, b ? 1 : 0)
        case .double(let d): rc = sqlite3_bind_double(handle, index, d)
        case .date(let d): rc = sqlite3_bind_double(handle, index, d.timeIntervalSinceReferenceDate)
        case .string(let s):
            // With its byte count, not -1: a string holding U+0000 is stored whole, as Core Data stores it.
            var text = s
            rc = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // An empty string has no buffer: bind "" (not NULL).
                    guard let base = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, groupsim_transient()) }
                    return sqlite3_bind_text(handle, index, base, Int32(clamping: chars.count), groupsim_transient())
                }
            }
        case .uuid(let u):
            var bytes = u.uuid
            rc = withUnsafeBytes(of: &bytes) { raw in
                sqlite3_bind_blob(handle, index, raw.baseAddress, 16, groupsim_transient())
            }
        }
        return rc
    }

    /// Binds `values` to the parameters `first`, `first + 1`... (keeping the other bindings).
    public func bind(_ values: [Value], from first: Int32) throws(SQLiteError) {
        let rc = values.withUnsafeBufferPointer { values -> Int32 in
            for i in values.indices {
                let rc = bindResult(values[i], at: first + Int32(i))
                if rc != SQLITE_OK { return rc }
            }
            return SQLITE_OK
        }
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
    }

    /// Binds an integer to the 1-based parameter `index`.
    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        if index >= 1 && index <= 64 { nullParameters &= ~(1 << UInt64(index - 1)) }
        let rc = sqlite3_bind_int64(handle, index, value)
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
    }

    /// Binds bytes as a BLOB to the 1-based parameter `index`.
    public func bind(_ data: Data, at index: Int32) throws(SQLiteError) {
        if index >= 1 && index <= 64 { nullParameters &= ~(1 << UInt64(index - 1)) }
        let rc = data.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(clamping: raw.count),
                              groupsim_transient())
        }
        guard rc == SQLITE_OK else { throw connection.error(rc, sql: sql) }
    }

    /// Binds `values` to parameters 1...n, after resetting the statement.
    public func bind(_ values: [Value]) throws(SQLiteError) {
        reset()
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Advances to the next row: `true` when a row is available, `false` when done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw connection.error(rc, sql: sql)
        }
    }

    /// Runs the statement to completion with `values` bound, discarding rows; returns the changes count.
    @discardableResult
    public func run(_ values: [Value] = []) throws(SQLiteError) -> Int {
        try bind(values)
        while try step() {}
        return Int(sqlite3_changes(connection.handle))
    }

    /// The number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// Whether the column at `index` (0-based) of the current row is NULL.
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The integer in column `index` (0-based) of the current row.
    public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// The double in column `index` (0-based) of the current row.
    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The column's bytes (a BLOB's, or a text's UTF-8), nil for NULL.
    public func data(at index: Int32) -> Data? {
        guard !isNull(at: index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The text in column `index` (0-based) of the current row, or `nil` for NULL.
    public func string(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        // By its byte count, so text holding U+0000 comes back whole.
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's value as SQLite holds it: INTEGER as `.int`, REAL as `.double`, TEXT as `.string`,
    /// a 16-byte BLOB as `.uuid`, NULL as `.null`.
    public func value(at index: Int32) -> Value {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return string(at: index).map(Value.string) ?? .null
        case SQLITE_BLOB: return uuid(at: index).map(Value.uuid) ?? .null
        default: return .null
        }
    }

    /// The column's value read as an attribute of `type` (dates from REAL, booleans from INTEGER...).
    public func value(at index: Int32, as type: AttributeType) -> Value {
        switch type {
        // NULL reads as a nil text pointer or an empty blob: no need to ask for the column's type first.
        case .string: return string(at: index).map(Value.string) ?? .null
        case .uuid: return uuid(at: index).map(Value.uuid) ?? .null
        default: break
        }
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        default: break
        }
        switch type {
        case .string: return string(at: index).map(Value.string) ?? .null
        case .int: return .int(sqlite3_column_int64(handle, index))
        case .double: return .double(sqlite3_column_double(handle, index))
        case .bool: return .bool(sqlite3_column_int64(handle, index) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, index)))
        case .uuid: return uuid(at: index).map(Value.uuid) ?? .null
        }
    }

    private func uuid(at index: Int32) -> UUID? {
        guard sqlite3_column_bytes(handle, index) == 16, let blob = sqlite3_column_blob(handle, index) else {
            return nil
        }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16)) }
        return UUID(uuid: bytes)
    }
}
