import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a file's first bytes keeping its holes: a store someone sent may be a sparse file of gigabytes
/// with a few pages of data, and a dense copy would write every zero of it. Where the file system reports
/// holes (`lseek` with `SEEK_DATA`/`SEEK_HOLE`), only the data ranges are read; where it does not, a chunk
/// of zeros is skipped rather than written. Either way the copy has the source's length and bytes.
enum SparseCopy {
    #if os(Linux)
    private static let seekData: Int32 = 3, seekHole: Int32 = 4
    #else
    private static let seekData = SEEK_DATA, seekHole = SEEK_HOLE
    #endif
    private static let chunk = 1 << 20

    /// The bytes the file at `path` has allocated on disk (less than its length when it has holes).
    static func allocatedBytes(atPath path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_blocks) &* 512
    }

    /// Copies the first `length` bytes of `source` (an open descriptor) into `destination` (an open, empty
    /// file); returns how many bytes the source had of them (fewer when it was shorter).
    static func copy(from source: Int32, to destination: Int32, length: Int64) throws -> Int64 {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset: Int64 = 0
        var end: Int64 = 0
        while offset < length {
            // The next data range; a file system that keeps no holes reports one range, the whole file.
            var data = lseek(source, off_t(offset), seekData)
            if data < 0 {
                if errno == ENXIO { break }   // no data past `offset`: the rest is a hole
                data = off_t(offset)         // SEEK_DATA unsupported: read everything
            }
            var hole = lseek(source, data, seekHole)
            if hole < 0 || hole <= data { hole = off_t(length) }
            var position = Int64(data)
            let stop = min(Int64(hole), length)
            while position < stop {
                let want = Int(min(Int64(chunk), stop - position))
                let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, want, off_t(position)) }
                if got < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                if got == 0 { return max(end, position) }   // the file ended early
                if buffer[0..<got].contains(where: { $0 != 0 }) {
                    var written = 0
                    while written < got {
                        let n = buffer.withUnsafeBytes { pwrite(destination, $0.baseAddress! + written, got - written, off_t(position) + off_t(written)) }
                        if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                        written += n
                    }
                }
                position += Int64(got)
                end = position
            }
            offset = stop
        }
        // The copy's length is the source's (within `length`), holes and a trailing run of zeros included.
        let size = Int64(lseek(source, 0, SEEK_END))
        let copied = min(length, max(size, end))
        guard ftruncate(destination, off_t(copied)) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return copied
    }
}
