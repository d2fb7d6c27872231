import Basics
import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization


/// Process-wide guarantees: no child outlives the runner, whichever way the runner ends.
///
/// Parent side: call `installCleanupHandlers()` once at startup; normal exit, SIGINT, SIGTERM and
/// SIGHUP then kill and reap every child's process group. Child side: call `dieWithParent()`
/// first thing, so that even a SIGKILLed runner (which runs no handler) takes its children along.
public enum ProcessGuard {
    private static let installed = Atomic<Bool>(false)
    /// Written once, by the single caller that wins `installed`; only kept to stay alive.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// In a child: be SIGKILLed when the parent dies.
    ///
    /// Arms the platform's parent-death notice (`PR_SET_PDEATHSIG` on Linux, a `kevent` on the
    /// parent's `NOTE_EXIT` on macOS: `groupsim_die_with_parent` in CSystemShims), then compares
    /// `getppid()` with the pid the launcher put in `GROUPSIM_PARENT_PID`: if the parent died before
    /// the notice was armed, the child was already re-parented, so it kills itself now. Where neither
    /// exists, a thread polls `getppid()` every 100 ms.
    ///
    /// - Parameter expectedParent: the parent's pid; read from `GROUPSIM_PARENT_PID` when nil.
    public static func dieWithParent(expectedParent: Int32? = nil) {
        let expected = expectedParent
            ?? ProcessInfo.processInfo.environment[PosixSpawn.parentPIDVariable].flatMap { Int32($0) }
        let parent = expected ?? getppid()
        if groupsim_die_with_parent() != 0 {
            Thread.detachNewThread {
                while getppid() == parent { usleep(100_000) }
                _ = SystemCalls.sendSignal(SIGKILL, to: getpid())
            }
        }
        if getppid() != parent {
            _ = SystemCalls.sendSignal(SIGKILL, to: getpid())
        }
    }

    /// In the runner: on normal exit (`atexit`) every child's process group is killed and reaped. The
    /// first SIGINT, SIGTERM or SIGHUP interrupts the whole invocation: it is remembered
    /// (`interruption`), every child is killed so the runs in progress end at once, and the caller is
    /// expected to start nothing new, report what finished and exit with `128 + signal`; if it has not
    /// within `grace` (0.8 s: one signal ends the invocation within a second, whatever phase it is in:
    /// checking a long trace, writing reports, shrinking), the process exits anyway, with the same status.
    /// Reports are written whole or not at all (each file by a rename), so an exit in the middle of one
    /// leaves the one before. A second signal exits at once. Either way no child and no registered
    /// sandbox is left behind. SIGPIPE is ignored. Calling it again does nothing.
    public static func installCleanupHandlers(grace: Swift.Duration = .milliseconds(800)) {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Output piped into `head` must not kill the invocation before it writes its reports and
        // cleans up: a write to a closed pipe fails instead.
        signal(SIGPIPE, SIG_IGN)
        atexit { ProcessGuard.killAllChildren() }
        let sources = [SIGINT, SIGTERM, SIGHUP].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let (first, _) = interruptedBy.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
                ProcessGuard.killAllChildren()
                guard first else {
                    // A second signal: the user means it. (raise() would not do: this dispatch thread
                    // blocks signals, so the default action would never run.)
                    _exit(128 + number)
                }
                let (seconds, attoseconds) = grace.components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                    ProcessGuard.killAllChildren()
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        signalSources = sources
    }

    private static let interruptedBy = Atomic<Int32>(0)

    /// The signal that interrupted the invocation (SIGINT, SIGTERM, SIGHUP), or nil.
    public static var interruption: Int32? {
        let number = interruptedBy.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// The exit status an interrupted invocation ends with: 128 plus the signal's number (130 for SIGINT).
    public static var interruptedExitStatus: Int32? { interruption.map { 128 + $0 } }

    /// SIGKILLs every child not yet reaped (stopped ones too) with its process group, and reaps it;
    /// then runs the work registered with `CleanupRegistry` (removing sandboxes).
    public static func killAllChildren() {
        ChildRegistry.shared.killAll()
        CleanupRegistry.shared.runAll()
    }

    /// The pids of children spawned and not yet reaped.
    public static var liveChildren: [Int32] {
        ChildRegistry.shared.live.map(\.pid).sorted()
    }
}
