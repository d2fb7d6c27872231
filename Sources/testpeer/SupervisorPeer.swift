// testpeer supervisor: children with known behavior for SupervisorTests.
//
//   testpeer supervisor echo                 say "ready", then answer each stdin line `L` with `echo L`;
//                                            `exit N` exits with N; end of input exits 0
//   testpeer supervisor hang                 say "ready", then never answer and never exit
//   testpeer supervisor sleep <ms> [code]    sleep, then exit with code (default 0)
//   testpeer supervisor stderr <text> [code] write text to stderr, exit with code (default 0)
//   testpeer supervisor spawn-orphan         start `die-with-parent` as a child of this process
//                                            (sharing stdout), say "middle <pid>", then sleep
//   testpeer supervisor die-with-parent      arm the parent-death signal, say "armed <pid>", sleep
//
// testpeer does not link the Supervisor target (Package.swift lists only SharedStore and Notify),
// so `die-with-parent` repeats the few lines of `ProcessGuard.dieWithParent()`.
import Basics
import CSystemShims
import Foundation
#if canImport(Glibc)
import Glibc
#endif

func runSupervisorPeer(_ arguments: [String]) -> Never {
    switch arguments.first {
    case "echo":
        peerSay("ready")
        while let line = readLine() {
            if line.hasPrefix("exit") {
                exit(Int32(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) ?? 0)
            }
            peerSay("echo \(line)")
        }
        exit(0)
    case "hang":
        peerSay("ready")
        sleepForever()
    case "sleep" where arguments.count >= 2:
        usleep(UInt32(Int(arguments[1]) ?? 0) * 1000)
        exit(arguments.count > 2 ? Int32(arguments[2]) ?? 0 : 0)
    case "stderr" where arguments.count >= 2:
        FileHandle.standardError.write(Data((arguments[1] + "\n").utf8))
        exit(arguments.count > 2 ? Int32(arguments[2]) ?? 0 : 0)
    case "spawn-orphan":
        spawnDyingGrandchild()
        peerSay("middle \(getpid())")
        sleepForever()
    case "die-with-parent":
        armParentDeathSignal()
        peerSay("armed \(getpid())")
        sleepForever()
    default:
        peerFail("usage: testpeer supervisor echo|hang|sleep|stderr|spawn-orphan|die-with-parent ...")
    }
}

private func sleepForever() -> Never {
    while true { sleep(1000) }
}

/// The same steps as `ProcessGuard.dieWithParent()`: SIGKILL when the parent dies, and exit now if
/// it already died before the signal was armed.
private func armParentDeathSignal() {
    _ = groupsim_die_with_parent()
    if let expected = ProcessInfo.processInfo.environment["GROUPSIM_PARENT_PID"].flatMap(Int32.init),
       getppid() != expected {
        kill(getpid(), SIGKILL)
    }
}

private func spawnDyingGrandchild() {
    setenv("GROUPSIM_PARENT_PID", String(getpid()), 1)
    let executable = SystemCalls.ownExecutablePath() ?? CommandLine.arguments[0]
    let argv = ["testpeer", "supervisor", "die-with-parent"]
    var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, nil, nil, &cArguments, environ)
    if result != 0 { peerFail("posix_spawn failed: \(result)") }
}
