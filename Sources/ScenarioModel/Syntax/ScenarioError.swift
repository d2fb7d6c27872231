import Basics
import Foundation

/// One problem in a scenario file, with the position it is about and a sentence that says how to fix it.
///
/// ```
/// Scenarios/refresh.yaml:12:5: error: unknown key 'stalness'; did you mean 'staleness'?
/// ```
public struct ScenarioError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file as it was named to the loader.
    public var file: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1.
    public var column: Int
    /// What is wrong and how to fix it, as whole sentences (without the position).
    public var message: String

    /// Creates an error at a position.
    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// Creates an error at a location.
    public init(at location: SourceLocation, message: String) {
        self.init(file: location.file, line: location.line, column: location.column, message: message)
    }

    /// The error's position.
    public var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// `file:line:column: error: message`.
    /// `file:line:column: error: message`, the file's name escaped (`VisibleText`): a name is someone
    /// else's text too, and a terminal or a CI log shows it.
    public var description: String { "\(VisibleText.escaped(file)):\(line):\(column): error: \(message)" }
}

extension ScenarioError: LocalizedError {
    public var errorDescription: String? { description }
}

/// Every error found in one or more scenario files, sorted by file and position.
///
/// The loader collects all of them before throwing, so one run of `groupsim validate` shows every
/// problem at once.
public struct ScenarioErrors: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The errors, sorted by file, line and column.
    public var errors: [ScenarioError]

    /// Creates the aggregate, sorting the errors by position and dropping exact duplicates.
    public init(_ errors: [ScenarioError]) {
        var seen = Set<ScenarioError>()
        self.errors = errors
            .filter { seen.insert($0).inserted }
            .enumerated()
            .sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
            .map(\.element)
    }

    /// One error per line, in order.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

extension ScenarioErrors: LocalizedError {
    public var errorDescription: String? { description }
}
