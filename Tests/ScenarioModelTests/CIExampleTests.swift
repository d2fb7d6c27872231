import Foundation
import Testing
import Yams

/// The sample GitHub Actions workflow the docs ship parses as YAML, names only actions that exist at the
/// versions given, asks for the permission its JUnit action needs, and builds once (issue 30).
@Suite struct CIExampleTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/ci/groupsim.yml")

    @Test func theSampleWorkflowParsesAndNamesRealActions() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let loaded = try #require(try Yams.load(yaml: text) as? [String: Any])
        let permissions = try #require(loaded["permissions"] as? [String: String])
        #expect(permissions["checks"] == "write", "mikepenz/action-junit-report publishes a check run")
        let jobs = try #require(loaded["jobs"] as? [String: Any])
        var uses: [String] = []
        var runs: [String] = []
        for case let job as [String: Any] in jobs.values {
            for case let step as [String: Any] in (job["steps"] as? [Any]) ?? [] {
                if let action = step["uses"] as? String { uses.append(action) }
                if let command = step["run"] as? String { runs.append(command) }
            }
        }
        let known: Set<String> = ["actions/checkout@v4", "actions/cache@v4", "actions/upload-artifact@v4",
                                  "actions/download-artifact@v4", "mikepenz/action-junit-report@v4"]
        #expect(!uses.isEmpty && Set(uses).isSubset(of: known), "\(uses)")
        #expect(runs.filter { $0.contains("swift build -c release") }.count == 1, "one release build, shared by the shards")
        #expect(runs.contains { $0.contains("--shard ${{ matrix.shard }}/4") })
        // Expressions stay in block scalars: in a flow mapping `{ }` GitHub reads their braces as YAML.
        for line in text.split(separator: "\n") where line.contains("${{") {
            #expect(!line.contains(": {"), "\(line)")
        }
    }
}
