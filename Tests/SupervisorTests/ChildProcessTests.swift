import Foundation
import Supervisor
import Testing
import TestSupport

/// Real children (`testpeer supervisor ...`), real signals; every test leaves no child behind.
@Suite(.serialized, .spawnsProcesses) struct ChildProcessTests {
    private func spawnPeer(_ arguments: String..., process: String = "share", in dir: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess.spawn(LaunchSpec(
            process: process,
            executable: BuiltProducts.executable("testpeer"),
            arguments: ["supervisor"] + arguments,
            standardError: .file(dir.path("\(process).stderr"))))
    }

    @Test func jsonLinesMakeTheRoundTripThroughStdinAndStdout() throws {
        let dir = try TemporaryDirectory()
        let launcher: any ProcessLauncher = PosixSpawnLauncher()
        let child = try launcher.launch(LaunchSpec(
            process: "app", executable: BuiltProducts.executable("testpeer"), arguments: ["supervisor", "echo"]))
        #expect(try child.readLine(timeout: .seconds(5), awaiting: "say it is ready") == "ready")
        for step in 1...3 {
            try child.writeLine(#"{"step":\#(step),"action":"save"}"#)
            #expect(try child.readLine(timeout: .seconds(5), awaiting: "acknowledge step \(step)")
                == #"echo {"step":\#(step),"action":"save"}"#)
        }
        child.closeInput()
        #expect(try child.wait(timeout: .seconds(5)) == .exited(code: 0))
        #expect(ProcessProbe.isReaped(child.pid))
        #expect(!ProcessGuard.liveChildren.contains(child.pid))
        _ = dir
    }

    /// `readLineIfReady` never waits: nil while nothing is in, the line once it is, the end of output once
    /// the child has gone (what the runner reads of one process while it waits on another's reply).
    @Test func aLineIfReadyIsNilUntilItComesAndTheEndIsAnError() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("echo", in: dir)
        #expect(try child.readLine(timeout: .seconds(5), awaiting: "say it is ready") == "ready")
        #expect(try child.readLineIfReady(awaiting: "nothing") == nil)
        try child.writeLine("one")
        let deadline = ContinuousClock.now + .seconds(5)
        var line: String?
        while line == nil && ContinuousClock.now < deadline {
            line = try child.readLineIfReady(awaiting: "the echo")
            if line == nil { usleep(1_000) }
        }
        #expect(line == "echo one")
        child.closeInput()
        #expect(try child.wait(timeout: .seconds(5)) == .exited(code: 0))
        #expect(throws: SupervisorError.endOfOutput(process: "share", awaiting: "more")) {
            while ContinuousClock.now < deadline {
                _ = try child.readLineIfReady(awaiting: "more")
                usleep(1_000)
            }
        }
        _ = dir
    }

    @Test func childRunsInItsOwnProcessGroup() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("hang", in: dir)
        defer { child.kill() }
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        #expect(getpgid(child.pid) == child.pid)
        #expect(getpgid(child.pid) != getpgrp())
        #expect(ProcessGuard.liveChildren.contains(child.pid))
    }

    @Test func childInheritsNoDescriptorOfTheRunnerButItsStandardOnes() throws {
        let dir = try TemporaryDirectory()
        // Open descriptors of our own that a careless spawn would leak.
        let extra = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        defer { try? extra.close() }
        let child = try spawnPeer("hang", in: dir)
        defer { child.kill() }
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        let inherited = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd")
            .compactMap { Int32($0) }
            .filter { descriptor in
                // Keep only descriptors that point to something the runner has open too.
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/\(descriptor)")) ?? ""
                return descriptor > 2 && (target == "/dev/null" || target.hasPrefix("socket:"))
            }
        let targets = inherited.map { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/\(descriptor)")) ?? "?"
        }
        #expect(inherited.isEmpty, "the child inherited \(zip(inherited, targets).map { "\($0) -> \($1)" })")
    }

    @Test func exitCodeAndCapturedStderrAreReported() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("stderr", "disk full", "3", in: dir)
        #expect(try child.wait(timeout: .seconds(5)) == .exited(code: 3))
        #expect(child.standardErrorOutput() == "disk full\n")
        #expect(ProcessProbe.isReaped(child.pid))
    }

    @Test func stoppedChildAnswersNothingUntilContinued() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("echo", in: dir)
        defer { child.kill() }
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        try child.signal(.stop)
        #expect(ProcessProbe.eventually { ProcessProbe.state(of: child.pid) == "T" })
        try child.writeLine("while stopped")
        #expect(throws: SupervisorError.timedOut(process: "share", awaiting: "answer while stopped", after: .milliseconds(200))) {
            try child.readLine(timeout: .milliseconds(200), awaiting: "answer while stopped")
        }
        try child.signal(.continue)
        #expect(try child.readLine(timeout: .seconds(5), awaiting: "answer after continuing") == "echo while stopped")
    }

    @Test func sigkillEndsAStoppedChild() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("echo", in: dir)
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        try child.signal(.stop)
        #expect(ProcessProbe.eventually { ProcessProbe.state(of: child.pid) == "T" })
        try child.signal(.kill)
        #expect(try child.wait(timeout: .seconds(1)) == .killed(signal: SIGKILL))
        #expect(ProcessProbe.isReaped(child.pid))
        #expect(throws: SupervisorError.alreadyExited(process: "share", status: .killed(signal: SIGKILL))) {
            try child.signal(.continue)
        }
    }

    @Test func killReapsAStoppedChildAtOnce() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("hang", in: dir)
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        try child.signal(.stop)
        child.kill()
        #expect(child.exitStatus() == .killed(signal: SIGKILL))
        #expect(ProcessProbe.isReaped(child.pid))
        #expect(!ProcessGuard.liveChildren.contains(child.pid))
    }

    @Test func hungChildHitsItsTimeoutWithAnErrorNamingWhatWasAwaited() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("hang", process: "share", in: dir)
        defer {
            child.kill()
            #expect(ProcessProbe.isReaped(child.pid))
        }
        _ = try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        try child.writeLine(#"{"step":4}"#)
        let started = ContinuousClock.now
        do {
            _ = try child.readLine(timeout: .milliseconds(150), awaiting: "acknowledge step 4")
            Issue.record("a hung child answered")
        } catch {
            #expect(error == .timedOut(process: "share", awaiting: "acknowledge step 4", after: .milliseconds(150)))
            #expect(error.description == "Timed out after 0.15 seconds waiting for 'share' to acknowledge step 4.")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(throws: SupervisorError.timedOut(process: "share", awaiting: "exit", after: .milliseconds(100))) {
            try child.wait(timeout: .milliseconds(100))
        }
    }

    @Test func childThatExitsEndsItsOutputInsteadOfTimingOut() throws {
        let dir = try TemporaryDirectory()
        let child = try spawnPeer("sleep", "10", "0", in: dir)
        #expect(throws: SupervisorError.endOfOutput(process: "share", awaiting: "say it is ready")) {
            try child.readLine(timeout: .seconds(5), awaiting: "say it is ready")
        }
        #expect(try child.wait(timeout: .seconds(5)) == .exited(code: 0))
    }

    @Test func missingExecutableIsASpawnError() throws {
        #expect(throws: SupervisorError.spawnFailed(process: "ghost", executable: "/nonexistent/agent", errno: ENOENT)) {
            try ChildProcess.spawn(LaunchSpec(process: "ghost", executable: "/nonexistent/agent"))
        }
    }

    @Test func grandchildDiesWithItsParent() throws {
        let dir = try TemporaryDirectory()
        let middle = try spawnPeer("spawn-orphan", process: "middle", in: dir)
        defer { middle.kill() }
        var grandchild: Int32?
        for _ in 0..<2 {
            let line = try middle.readLine(timeout: .seconds(5), awaiting: "report its child")
            if line.hasPrefix("armed ") { grandchild = Int32(line.dropFirst(6)) }
        }
        let orphan = try #require(grandchild)
        #expect(!ProcessProbe.isGone(orphan))
        // Kill only the middle process, not its group: the grandchild must go on its own.
        kill(middle.pid, SIGKILL)
        #expect(try middle.wait(timeout: .seconds(1)) == .killed(signal: SIGKILL))
        #expect(ProcessProbe.eventually(.seconds(1)) { ProcessProbe.isGone(orphan) })
    }
}
