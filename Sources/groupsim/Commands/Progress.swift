import Foundation
import Synchronization
import Trace

/// A one-line progress indicator on stderr, shown only when stderr is a terminal and there is
/// more than one run (CI logs stay clean).
final class Progress: Sendable {
    private struct State { var done = 0; var current = "" }
    private let total: Int
    private let enabled: Bool
    private let state = Mutex(State())

    init(total: Int) {
        self.total = total
        enabled = total > 1 && isatty(STDERR_FILENO) == 1
    }

    func started(_ info: RunInfo) {
        state.withLock { $0.current = "\(info.scenario) / \(info.variant)" }
        draw()
    }

    func finished() {
        state.withLock { $0.done += 1 }
        draw()
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw() {
        guard enabled else { return }
        let (done, current) = state.withLock { ($0.done, $0.current) }
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(total)] \(current)".utf8))
    }
}
