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

    /// A runner killed outright (SIGKILL) leaves its pool's folder and its sandbox: the next runner's
    /// sweep removes both once their process is gone, and leaves a kept sandbox and a live process's.
    @Test func theNextRunnerSweepsAKilledRunnersPoolFolderAndSandbox() throws {
        let base = try TemporaryDirectory()
        // A pid that no process has: past the largest a Linux pid can be.
        let gone: Int32 = 4_194_305
        let names = ["gs-pool-\(gone)-DEADBEEF", "gs-\(gone)-ABCDEF", "gs-\(gone)-KEPT00", "gs-pool-\(getpid())-LIVE0000"]
        for name in names { try FileManager.default.createDirectory(at: base.url.appendingPathComponent(name), withIntermediateDirectories: true) }
        _ = FileManager.default.createFile(atPath: base.url.appendingPathComponent("gs-\(gone)-KEPT00/KEEP").path, contents: nil)
        Sandbox.removeAbandoned(in: base.url)
        let left = Set((try FileManager.default.contentsOfDirectory(atPath: base.url.path)))
        #expect(left == ["gs-\(gone)-KEPT00", "gs-pool-\(getpid())-LIVE0000"], "\(left)")
    }
}
