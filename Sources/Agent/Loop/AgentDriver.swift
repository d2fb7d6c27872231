import Basics
import Foundation
import Notify
import Trace

extension AgentProcess {
    /// The agent the runner spawns: notifications through the run's hub, replies as JSON lines on
    /// stdout.
    public static func spawned(config: AgentConfig) throws -> AgentProcess {
        let center = try HubNotificationCenter(hubSocketPath: config.hubSocket, process: config.process)
        let output = LineWriter(fd: 1)
        return try AgentProcess(config: config, center: center) { reply in
            guard let data = try? JSONEncoder().encode(reply) else { return }
            output.write(String(decoding: data, as: UTF8.self))
        }
    }

    /// The driver: reads requests (one JSON line each) from `fd` and handles them, with the
    /// notifications and polls that come due in between, until the runner says `exit` or closes the
    /// stream. Returns the exit status.
    public func run(input fd: Int32 = 0) -> Int32 {
        let input = LineReader(fd: fd)
        if settings.observe == .launch { startObserving() }
        // An app becomes active when it launches: the activation trigger runs then too.
        if settings.trigger == .activation { runRefresh(reason: .activation) }
        reply(AgentReply(seq: 0, status: .ready))
        nextPoll = MonotonicClock.now() + settings.pollIntervalNanos
        while true {
            let ready = waitReadable([input.fd, inbox.readDescriptor], timeoutNanos: pollTimeout())
            if ready.contains(inbox.readDescriptor) { handleNotifications() }
            pollIfDue()
            guard ready.contains(input.fd) else { continue }
            for line in input.drain() where !line.isEmpty {
                guard let request = try? JSONDecoder().decode(AgentRequest.self, from: Data(line.utf8)) else {
                    trace.record(.error(ErrorRecord(kind: .other, message: "unreadable request: \(line)")))
                    continue
                }
                if case .exit = request.command {
                    reply(AgentReply(seq: request.seq, status: .ok))
                    return 0
                }
                handle(request)
            }
            if input.isClosed { return 0 }
        }
    }
}
