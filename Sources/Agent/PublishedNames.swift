import Foundation

/// Which scenario id each ensemble-wide global identifier carries, as the run's exporting processes
/// published it beside the change sets: a harness file (`.names`, which the transfer service never
/// lists), one `name<TAB>global` line per pair, written before the change sets that carry them are
/// uploaded. An importing process reads it, so a row imported while the exporter's `sync` step is still
/// under way is named by its id, as when the runner has had the exporter's reply first: real time logged
/// such a row under a placeholder (`Note#2`), and the checkers took it for an object that never reached
/// the store, which the deterministic mode, one process at a time, never did.
struct PublishedNames {
    let file: URL
    /// The pairs this process has written.
    private var written: Set<String> = []

    /// The names file of the transfer directory `directory`.
    init(transferDirectory directory: URL) {
        file = directory.appendingPathComponent(".names")
    }

    /// Appends the pairs not written yet, in one write.
    mutating func publish(_ globals: [String: String]) {
        let lines = globals.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.filter { !written.contains($0) }
        guard !lines.isEmpty else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(lines.joined().utf8)
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count == bytes.count { written.formUnion(lines) }
    }

    /// Every name's global identifiers published so far. Only whole lines count: a line another process
    /// is still appending (cut anywhere, even inside a character) is left for the next read, and the
    /// lines before it are read as they are.
    func read() -> [String: [String]] {
        guard let data = try? Data(contentsOf: file) else { return [:] }
        var globals: [String: [String]] = [:]
        let newline = UInt8(ascii: "\n"), tab = UInt8(ascii: "\t")
        guard let end = data.lastIndex(of: newline) else { return [:] }
        for line in data[..<end].split(separator: newline) {
            let parts = line.split(separator: tab, maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = String(decoding: parts[0], as: UTF8.self), global = String(decoding: parts[1], as: UTF8.self)
            if !(globals[name] ?? []).contains(global) { globals[name, default: []].append(global) }
        }
        return globals
    }
}
