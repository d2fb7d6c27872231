import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is released.
///
/// Each test makes its own, so tests never share a store file and can run in parallel:
/// ```swift
/// let dir = try TemporaryDirectory()
/// let storeURL = dir.url.appendingPathComponent("Notes.sqlite")
/// ```
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates a new, empty directory whose name starts with `prefix`.
    public init(prefix: String = "groupsim-test") throws {
        let base = FileManager.default.temporaryDirectory
        let name = "\(prefix)-\(UUID().uuidString.prefix(8))"
        url = base.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
