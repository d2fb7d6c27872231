import Basics
import Foundation
import Testing

/// Golden files under `Tests/Golden/Reporters/`: a report must render byte for byte as recorded.
/// Run with `GROUPSIM_RECORD_GOLDEN=1` to record them again after an intended change, then review the diff.
///
/// They live outside the test target's directory, so SwiftPM does not warn about unhandled resources
/// (declaring them would need a Package.swift change); `#filePath` finds them from the source tree.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/Reporters")

    static var recording: Bool { ProcessInfo.processInfo.environment["GROUPSIM_RECORD_GOLDEN"] == "1" }

    static func verify(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if recording {
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
