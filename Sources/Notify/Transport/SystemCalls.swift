#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin, platform-neutral spellings of the few calls whose module prefix differs.
enum SystemCalls {
    static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// Creates `path` and its parents (mode 0700 for new directories); existing ones are fine.
    static func makeDirectories(_ path: String) throws(NotifyError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .lastError("mkdir(\(current))")
            }
        }
    }

    /// The entry names in `path` (without `.` and `..`); empty when it does not exist.
    /// `readdir` directly: FileManager's listing costs about 10 us, as much as the send itself.
    static func listDirectory(_ path: String) -> [String] {
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
}
