#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C calls whose names collide with Supervisor's own methods, spelled once per platform.
enum SystemCalls {
    static func sendSignal(_ signal: Int32, to pid: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.kill(pid, signal)
        #else
        return Darwin.kill(pid, signal)
        #endif
    }

    static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
