import Testing

/// Marks a suite (or test) that starts real child processes: no two such tests run at the same time,
/// whichever target they are in, while the rest of the suite still runs in parallel.
///
/// A real process test measures real behaviour (a notification's arrival, a lock held across a
/// SIGSTOP); two of them running together compete for two cores and only make each slower. Verdicts
/// never depend on speed, but step timeouts and `within:` budgets are wall-clock, so the suite keeps
/// the machine for one of them at a time.
///
/// ```swift
/// @Suite(.serialized, .spawnsProcesses) struct EndToEndTests { … }
/// ```
public struct SpawnsProcesses: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Each test case takes the lock; the suite itself does not (its tests would wait on it forever).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await ProcessTestLock.shared.acquire()
        do {
            try await function()
        } catch {
            await ProcessTestLock.shared.release()
            throw error
        }
        await ProcessTestLock.shared.release()
    }
}

extension Trait where Self == SpawnsProcesses {
    /// See `SpawnsProcesses`.
    public static var spawnsProcesses: Self { Self() }
}

/// One process-wide lock, fair (first come, first served), for tests that spawn processes.
actor ProcessTestLock {
    static let shared = ProcessTestLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
