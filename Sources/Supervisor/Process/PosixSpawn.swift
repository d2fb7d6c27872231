#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShims
import Foundation

/// `posix_spawn` with the file actions and attributes every child gets.
enum PosixSpawn {
    /// The environment variable carrying the runner's pid to `ProcessGuard.dieWithParent()`.
    static let parentPIDVariable = "GROUPSIM_PARENT_PID"

    /// Starts `spec` with `stdio` as its stdin and stdout, in a new process group.
    ///
    /// The child gets: only descriptors 0, 1 and 2; its own process group (so the runner can signal it and its children at
    /// once), an empty signal mask and default dispositions (an ignored SIGPIPE or SIGINT in the
    /// runner would otherwise be inherited across exec), and `GROUPSIM_PARENT_PID`.
    static func spawn(_ spec: LaunchSpec, stdio: Int32) -> Result<pid_t, SupervisorError> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdio, 0)
        posix_spawn_file_actions_adddup2(&actions, stdio, 1)
        switch spec.standardError {
        case let .file(path):
            posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .inherit:
            break
        }
        // Descriptors the runner inherited or opened without close-on-exec (test harnesses,
        // libraries) must not reach the child: a leaked end of another child's socket would
        // keep that child from ever reading end-of-file. (macOS: POSIX_SPAWN_CLOEXEC_DEFAULT below.)
        _ = groupsim_spawn_close_from(&actions, 3)
        if let directory = spec.workingDirectory {
            let failed = groupsim_spawn_chdir(&actions, directory)
            if failed != 0 {
                return .failure(.spawnFailed(process: spec.process, executable: spec.executable, errno: failed))
            }
        }

        var flags = Int32(POSIX_SPAWN_SETPGROUP) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var environment = ProcessInfo.processInfo.environment
        environment[parentPIDVariable] = String(getpid())
        environment.merge(spec.environment) { _, new in new }
        let argv = [spec.executable] + spec.arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }.sorted()

        return withCStrings(argv) { argvPointers in
            withCStrings(envp) { envPointers in
                var pid: pid_t = 0
                let result = posix_spawn(&pid, spec.executable, &actions, &attributes, argvPointers, envPointers)
                guard result == 0 else {
                    return .failure(.spawnFailed(process: spec.process, executable: spec.executable, errno: result))
                }
                return .success(pid)
            }
        }
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
