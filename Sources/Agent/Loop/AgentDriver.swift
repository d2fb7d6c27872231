#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Basics
import Foundation
import Notify
import Trace

extension AgentProcess {
    /// The agent the runner spawns: notifications through the run's hub, replies as JSON lines on
    /// stdout.
    public static func spawned(config: AgentConfig) throws -> AgentProcess {
        let world = AgentWorld(config: config)
        // The runner routes a deterministic agent's notifications; a real-time agent's go through the hub.
        let center: any DarwinNotificationCenter = try world.routedCenter
            ?? HubNotificationCenter(hubSocketPath: config.hubSocket, process: config.process)
        let output = LineWriter(fd: 1)
        return try AgentProcess(config: config, world: world, center: center) { reply in
            guard let line = try? AgentWire.line(reply) else { return }
            output.write(line)
        }
    }

    /// The driver: reads requests (one JSON line each) from `fd` and handles them, with the
    /// notifications and polls that come due in between, until the runner says `exit` or closes the
    /// stream. Returns the exit status.
    public func run(input fd: Int32 = 0) -> Int32 {
        run(reading: LineReader(fd: fd))
    }

    func run(reading input: LineReader) -> Int32 {
        if settings.observe == .launch { startObserving() }
        // An app becomes active when it launches: the activation trigger runs then too.
        if settings.trigger == .activation { runRefresh(reason: .activation) }
        reply(AgentReply(seq: 0, status: .ready))
        nextPoll = time.now + settings.pollInterval.nanos
        while true {
            let ready = waitReadable([input.fd, inbox.readDescriptor], timeoutNanos: pollTimeout())
            if ready.contains(inbox.readDescriptor) {
                // Notifications the file holds for a `deliver` are that step's: they wait for its request.
                if notificationsHeld { inbox.acknowledge() } else { handleNotifications() }
            }
            pollIfDue()
            guard ready.contains(input.fd) else { continue }
            input.fill()
            while let line = input.nextLine() {
                guard !line.isEmpty else { continue }
                guard let request = try? AgentWire.decode(AgentRequest.self, from: line) else {
                    trace.record(.error(ErrorRecord(kind: .other, message: "unreadable request: \(line)")))
                    continue
                }
                if case .exit = request.command {
                    // The store is closed before the reply: the runner's next step finds the files as this
                    // process leaves them (its last-connection checkpoint done), whatever the timing. In the
                    // deterministic mode closing takes the time the runner charges for it.
                    if let t = request.virtualTime { time.pass(to: t) }
                    // What the deterministic runner hands over with the request reached the process before
                    // it was asked to end: it is handled first, as the run loop serves its inbox first in
                    // real time.
                    if let notifications = request.notifications, !notifications.isEmpty { deliver(notifications) }
                    closeStores()
                    reply(AgentReply(seq: request.seq, status: .ok))
                    return 0
                }
                handle(request)
                // A check decided (matched, failed, or asked for the last time): what it held back is handled now.
                // Another step of the process while the check is under way carries its deadline and no
                // attempt (`lastAttempt` nil): the hold goes on through it.
                if checkDeadline != nil, request.lastAttempt != nil, isLastAttempt || lastCheckMatched != false {
                    checkDeadline = nil
                    if inbox.count > 0 && !notificationsHeld { handleNotifications() }
                }
            }
            if input.isClosed { return 0 }
        }
    }
}

extension AgentProcess {
    /// A standby agent (`groupsim agent --standby`, the deterministic mode's pool): it waits for a
    /// config line on stdin, becomes that process (its store, its trace, its stderr file) until the
    /// runner says `exit`, then closes everything it opened and waits for the next config. A crash or
    /// a kill ends it for real. Returns at the end of stdin.
    public static func standby(input fd: Int32 = 0) -> Int32 {
        // Every code path a process takes, taken once before any process needs it (see `warmUp()`).
        warmUp()
        let input = LineReader(fd: fd)
        let output = LineWriter(fd: 1)
        while let line = input.readLine() {
            guard !line.isEmpty else { continue }
            let agent: AgentProcess
            do {
                let config = try AgentWire.decode(AgentConfig.self, from: line)
                if let path = config.stderrPath { redirectStandardError(to: path) }
                agent = try AgentProcess.spawned(config: config)
            } catch {
                let record = ErrorRecord(kind: .other, message: "cannot become the process: \(error)")
                let reply = loadFailureReply(error) ?? AgentReply(seq: 0, status: .failed, error: record)
                if let line = try? AgentWire.line(reply) { output.write(line) }
                continue
            }
            _ = agent.run(reading: input)
            agent.shutdown()
            if input.isClosed { break }
        }
        return 0
    }

    /// Points fd 2 at `path` (appending), for the process this agent now is.
    static func redirectStandardError(to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = dup2(descriptor, 2)
        SystemCalls.closeDescriptor(descriptor)
    }
}
