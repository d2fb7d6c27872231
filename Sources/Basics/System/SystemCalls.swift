#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, platform-neutral spellings of the C calls whose names collide with methods of ours (`close`,
/// `kill`), and of directory calls the layers share. Every layer uses these, so each is spelled once.
public enum SystemCalls {
    /// `close(2)`.
    public static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// `kill(2)`: the call's result (0, or -1 with `errno`).
    @discardableResult
    public static func sendSignal(_ signal: Int32, to pid: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.kill(pid, signal)
        #else
        return Darwin.kill(pid, signal)
        #endif
    }

    /// The size of the file at `path` (`stat(2)`, following links), nil when it cannot be read. One
    /// system call, where `FileManager.attributesOfItem` also looks up the owner's name.
    public static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// A writable directory on a memory file system (`/dev/shm` on Linux), nil when the machine has none.
    public static let memoryDirectory: String? = {
        let path = "/dev/shm"
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access(path, W_OK | X_OK) == 0 else { return nil }
        return path
    }()

    /// Creates `path` and its parents (mode 0700 for new directories); existing ones are fine.
    /// - Returns: nil, or the directory that could not be made and its `errno`.
    public static func makeDirectories(_ path: String) -> (path: String, errno: Int32)? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                return (current, errno)
            }
        }
        return nil
    }

    /// The entry names in `path` (without `.` and `..`); empty when it does not exist.
    /// `readdir` directly: FileManager's listing costs about 10 us, as much as a datagram send.
    public static func listDirectory(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The path of this process's executable, to start it again in another role (`groupsim agent`).
    /// Linux: `/proc/self/exe` resolved; macOS: `_NSGetExecutablePath`. Nil when it cannot be told.
    public static func ownExecutablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size: UInt32 = 4096
        var buffer = [CChar](repeating: 0, count: Int(size))
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return String(cString: buffer)
        #else
        return nil
        #endif
    }
}
