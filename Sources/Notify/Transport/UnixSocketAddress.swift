#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `sockaddr_un` values for filesystem socket paths, refusing paths that do not fit.
enum UnixSocketAddress {
    /// The longest path, in bytes, that fits in `sun_path` with its terminating NUL.
    static let maximumPathLength: Int = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Throws `NotifyError.pathTooLong` unless `path` fits in a socket address.
    static func validate(_ path: String) throws(NotifyError) {
        guard path.utf8.count <= maximumPathLength else {
            throw .pathTooLong(path: path, limit: maximumPathLength)
        }
    }

    /// Calls `body` with a socket address for `path`.
    static func with<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(NotifyError) -> R {
        try validate(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        #if canImport(Darwin)
        address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
        #endif
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            raw.copyBytes(from: path.utf8)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The path stored in an address filled in by `recvfrom`, or nil for an unbound sender.
    static func path(of address: sockaddr_un, length: socklen_t) -> String? {
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        guard Int(length) > offset else { return nil }
        var copy = address
        return withUnsafeBytes(of: &copy.sun_path) { raw in
            let bytes = raw.prefix(Int(length) - offset).prefix { $0 != 0 }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }
}
