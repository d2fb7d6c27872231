import Foundation

/// The shared place where the stores of an ensemble leave change-set files for each other (Ensembles'
/// `CDECloudFileSystem`: iCloud Drive, Dropbox, a WebDAV folder, or the watch connectivity file transfer).
///
/// Names are flat (`watch-1A2B3C4D.000003.json`). A service may make a written file visible to the other
/// side only later (`DirectoryTransfer`'s latency); `list()` returns only what is visible now.
public protocol TransferService {
    /// The names of the files visible now, in no particular order.
    func list() throws -> [String]
    /// The content of a visible file.
    func read(_ name: String) throws -> Data
    /// Writes a file atomically: a reader sees all of it or nothing. Writing a name that already exists
    /// keeps the first file (change-set names are never reused with other content).
    func write(_ name: String, data: Data) throws
}

/// A transfer service on a local directory, standing for the cloud file service: one directory per
/// ensemble, shared by every store (and process) that joins it.
///
/// Latency: a file is written as `<name>~<written>` where `<written>` is the write time on the injected
/// clock in microseconds since 2001; `list()` shows it only when `now >= written + latency` on that clock.
/// Writes go to a hidden temporary file (`.<name>.<random>.tmp`) first and are renamed into place, so a
/// crash mid-write leaves no partial change set (hidden files are never listed).
///
/// ```swift
/// let transfer = DirectoryTransfer(root: sandbox, ensemble: "notes", latency: 2, clock: clock)
/// try transfer.write("a.json", data: data)   // invisible for 2 s of `clock`
/// ```
public struct DirectoryTransfer: TransferService, Sendable {
    /// The ensemble's directory.
    public let directory: URL
    /// How long after a write a file becomes visible, in seconds of `clock`.
    public let latency: TimeInterval
    /// The clock the write times and the latency are measured on.
    public let clock: any StoreClock

    /// A transfer service on `directory` (created when missing).
    public init(directory: URL, latency: TimeInterval = 0, clock: any StoreClock = SystemClock()) {
        self.directory = directory
        self.latency = latency
        self.clock = clock
    }

    /// The transfer directory of the ensemble named `ensemble` under `root` (`<root>/<ensemble>`).
    public init(root: URL, ensemble: String, latency: TimeInterval = 0, clock: any StoreClock = SystemClock()) {
        self.init(directory: root.appendingPathComponent(ensemble, isDirectory: true), latency: latency, clock: clock)
    }

    /// Every stored file (visible or not) with its write time.
    private func entries() throws -> [(name: String, file: String, written: Date)] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        }
        return files.compactMap { file in
            guard !file.hasPrefix("."), let tilde = file.lastIndex(of: "~"),
                let micros = Int64(file[file.index(after: tilde)...])
            else { return nil }
            return (String(file[..<tilde]), file, Date(timeIntervalSinceReferenceDate: Double(micros) / 1_000_000))
        }
    }

    private func isVisible(_ written: Date) -> Bool {
        clock.now >= written.addingTimeInterval(latency)
    }

    public func list() throws -> [String] {
        // Two processes of one store may both write a committed change set: one name, listed once.
        Array(Set(try entries().filter { isVisible($0.written) }.map(\.name)))
    }

    public func read(_ name: String) throws -> Data {
        guard let entry = try entries().first(where: { $0.name == name && isVisible($0.written) }) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: directory.appendingPathComponent(name).path])
        }
        return try Data(contentsOf: directory.appendingPathComponent(entry.file))
    }

    public func write(_ name: String, data: Data) throws {
        precondition(!name.contains("/") && !name.contains("~") && !name.hasPrefix("."), "invalid transfer file name \(name)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if try entries().contains(where: { $0.name == name }) { return }
        let micros = Int64((clock.now.timeIntervalSinceReferenceDate * 1_000_000).rounded(.down))
        let temporary = directory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        let final = directory.appendingPathComponent("\(name)~\(micros)")
        if rename(temporary.path, final.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: final.path,
                                                           NSLocalizedDescriptionKey: String(cString: strerror(code))])
        }
    }
}
