import Foundation
import GroupSimTesting
import Synchronization
import Testing

/// The app's scenarios, as its team would keep them: one that must pass, and one that shows the
/// staleness-interval trap, whose failure message is checked so it stays useful.
struct SharingTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios").path

    @Test func theShareExtensionsSaveReachesTheApp() throws {
        let results = try ScenarioTester().expectMatches(file: "\(Self.scenarios)/share-save-reaches-the-app.yaml")
        #expect(results.count == 1 && results.allSatisfy(\.matched))
    }

    @Test func aRefreshAtStalenessMinusOneIsCaughtAndExplained() throws {
        let messages = Mutex<[String]>([])
        try withKnownIssue("refreshAllObjects() at staleness -1 refills from the row cache") {
            try ScenarioTester().expectMatches(file: "\(Self.scenarios)/refresh-refills-from-the-row-cache.yaml")
        } matching: { issue in
            messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let message = try #require(messages.withLock { $0 }.first)
        #expect(message.contains("NOT MATCHED"))
        #expect(message.contains("stale-read"))
        #expect(message.contains("refilled n1 from the row cache"))
        #expect(message.contains("groupsim run") && message.contains("--seed"))
    }
}
