import Foundation
@testable import Runner
import Testing
import TestSupport

/// Standby agents warm up in the pool's folder, which goes with the pool: an agent killed in the
/// middle of its warm-up leaves nothing in the memory (or temporary) directory.
@Suite(.spawnsProcesses) struct AgentPoolCleanupTests {
    @Test func closingAPoolWhileItsAgentsWarmUpLeavesNoFolder() throws {
        let pool = AgentPool(executable: RunHarness.groupsim, target: 2)
        let folder = pool.warmUpRoot.path
        #expect(FileManager.default.fileExists(atPath: folder), "the pool's folder, where its agents warm up")
        pool.close()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
