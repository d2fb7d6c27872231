import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands notifications from the notification center's thread to the agent's single-threaded loop:
/// the center's handler appends and writes a byte to a pipe, which the loop polls with stdin.
final class Inbox<Item: Sendable>: Sendable {
    private let items = Mutex<[Item]>([])
    /// The end the loop polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    init() {
        var descriptors: [Int32] = [0, 0]
        _ = pipe(&descriptors)
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Called from any thread.
    func post(_ item: Item) {
        items.withLock { $0.append(item) }
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Called from the loop: the oldest item posted so far that `isDue`, or nil; the rest stays queued.
    /// The pipe is left as it is: call `acknowledge()` first, once, so that what is posted while the loop
    /// takes items leaves a byte that wakes it again.
    func takeFirst(_ isDue: (Item) -> Bool) -> Item? {
        items.withLock { queued in
            guard let index = queued.firstIndex(where: isDue) else { return nil }
            return queued.remove(at: index)
        }
    }

    /// Called from the loop: empties the pipe, leaving every item queued (an item it does not take then
    /// is taken by a later call, without another byte on the pipe).
    func acknowledge() {
        var scratch = [UInt8](repeating: 0, count: 256)
        while read(readDescriptor, &scratch, scratch.count) > 0 {}
    }

    /// How many items wait.
    var count: Int { items.withLock { $0.count } }
}
