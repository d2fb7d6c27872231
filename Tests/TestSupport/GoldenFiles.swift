import Foundation
import Testing

/// Expected output kept as files in the source tree: what a test produces must match byte for byte.
/// Run the tests with `GROUPSIM_RECORD_GOLDEN=1` to record them again after an intended change, then
/// review the diff.
///
/// They live outside the test targets' directories, so SwiftPM does not warn about unhandled resources;
/// `#filePath` finds them from the source tree.
public struct GoldenFiles: Sendable {
    /// The folder of the files.
    public let directory: URL

    /// The files in `Tests/Golden/<folder>`, for a test file at `file` (pass `#filePath`).
    public init(_ folder: String, testFile file: String) {
        directory = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden").appendingPathComponent(folder)
    }

    /// Whether this run records the files instead of checking them.
    public static var recording: Bool { ProcessInfo.processInfo.environment["GROUPSIM_RECORD_GOLDEN"] == "1" }

    /// Records an issue, naming the first differing line, when `actual` differs from the file `name`.
    public func verify(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if Self.recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("No golden file \(name): run the tests with GROUPSIM_RECORD_GOLDEN=1 to record it.", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let line = Array(zip(expectedLines, actualLines)).firstIndex { $0 != $1 } ?? min(expectedLines.count, actualLines.count)
            let want = line < expectedLines.count ? String(expectedLines[line]) : "<end of file>"
            let got = line < actualLines.count ? String(actualLines[line]) : "<end of file>"
            Issue.record("\(name) differs from its golden file at line \(line + 1):\n  golden: \(want.prefix(300))\n  actual: \(got.prefix(300))\nRecord again with GROUPSIM_RECORD_GOLDEN=1 if the change is intended.", sourceLocation: sourceLocation)
        }
    }
}
