import Foundation

/// Reading a file someone else made (an app's model package): a link is followed, and only a regular
/// file is read (one linked to a device or a FIFO would never end), and never more than a limit.
enum UntrustedFile {
    enum Refusal: Error {
        /// A device, a FIFO or a folder, or a link to one.
        case notRegular
        /// Larger than the limit.
        case tooLarge
        /// It could not be opened or read.
        case unreadable(any Error)
    }

    /// The file's bytes, at most `limit` of them.
    static func data(_ url: URL, limit: Int) throws(Refusal) -> Data {
        let resolved = url.resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: resolved.path) } catch { throw .unreadable(error) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw .notRegular }
        guard (attributes[.size] as? Int ?? 0) <= limit else { throw .tooLarge }
        do {
            let handle = try FileHandle(forReadingFrom: resolved)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw Refusal.tooLarge }
            return data
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .unreadable(error)
        }
    }
}
