#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A piece of checking run on a thread of its own, then joined: on a long trace, the latency tracker's
/// pass and the later reads' run beside the oracle's making and the other judges (`ApartJudge`).
///
/// A thread made for the purpose, not a queue's: a check may itself run on a queue's thread, and one
/// that waited for work queued behind it could wait for ever when the queue's threads are all waiting so.
/// The work's effects are seen by the joining thread once `join` returns (joining synchronizes with
/// the thread's end); until then nothing else may write what the work reads, nor touch what it writes.
/// The compiler cannot check that (the work is no `Sendable` closure: it shares the trace and the
/// histories with the checking thread, read-only), so `ApartJudge` keeps to it by construction.
final class JudgeThread {
    private final class Work {
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }
    }

    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private var joined = false

    /// Starts `body` on a new thread; nil when none can be made (the caller does the work itself).
    init?(_ body: @escaping () -> Void) {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Glibc)
        let made = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        #else
        let made = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
            work.body()
            return nil
        }, work)
        #endif
        guard made == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            // No thread to join: `deinit` must not join the handle that was never made.
            joined = true
            return nil
        }
    }

    /// Waits for the work to end.
    func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        if let thread { pthread_join(thread, nil) }
        #endif
    }

    deinit {
        join()
    }
}
