/// A position in a scenario file: the file as it was named to the loader, and a 1-based line and column.
///
/// Every step carries one, so the runner, the trace and the reports can point back at the line that
/// caused what they show.
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The file as it was named to the loader (relative to the working directory when it lies under it).
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// Where the steps the deterministic mode's schedule adds come from (a `deliver`, a
    /// `hold-notifications`): no line of the file.
    public static let schedule = SourceLocation(file: "<schedule>", line: 0, column: 0)

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, the form reports and anomalies print for a step.
    public var fileAndLine: String { "\(file):\(line)" }

    /// Orders by file, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
