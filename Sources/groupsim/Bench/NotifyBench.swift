import ArgumentParser
import Basics
import Foundation
import Notify
import Supervisor
import Synchronization

/// The two ways processes notify each other.
enum NotifyBenchMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Peer to peer: `DirectNotificationCenter`.
    case direct
    /// Through a `NotifyHub` running in the benchmark process, as the runner runs it.
    case hub
}

/// `groupsim bench notify`: one-way notification latency between two real processes.
///
/// The benchmark re-launches itself as a peer (`groupsim bench notify-peer`) that answers every
/// `ping` with a `pong`. Each pong carries the peer's CLOCK_MONOTONIC post time, so the one-way
/// latency is measured directly on one clock; half the round trip is printed beside it.
struct NotifyBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Measure one-way notification latency between two processes, direct and through the hub.",
        discussion: "Build in release for meaningful numbers: swift run -c release groupsim bench notify")

    @Option(help: "Ping-pongs measured per mode.")
    var iterations = 10_000

    @Option(help: "Ping-pongs run first and not measured.")
    var warmup = 500

    @Option(help: "Modes to measure: direct, hub (repeat the option for several).")
    var mode: [NotifyBenchMode] = NotifyBenchMode.allCases

    func validate() throws {
        guard iterations > 0, warmup >= 0 else {
            throw ValidationError("Give a positive --iterations and a --warmup of zero or more.")
        }
    }

    func run() throws {
        ProcessGuard.installCleanupHandlers()
        print("One-way notification latency between two processes, \(iterations) ping-pongs per mode.")
        print("mode    | one-way p50 | one-way p99 | one-way max | rtt/2 p50 | rtt/2 p99")
        for mode in mode {
            let result = try NotifyPingPong(mode: mode, iterations: iterations, warmup: warmup).run()
            print(result.row)
        }
    }
}

/// `groupsim bench notify-peer`: the benchmark's other process (hidden).
struct NotifyPeerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-peer",
        abstract: "Answer each ping notification with a pong (used by bench notify).",
        shouldDisplay: false)

    @Option var mode: NotifyBenchMode
    @Option(help: "The notify directory (direct) or the hub's socket (hub).")
    var path: String

    func run() throws {
        ProcessGuard.dieWithParent()
        let center: any DarwinNotificationCenter = switch mode {
        case .direct: try DirectNotificationCenter(directory: path)
        case .hub: try HubNotificationCenter(hubSocketPath: path, process: "peer")
        }
        _ = try center.addObserver("ping") { _ in try? center.post("pong") }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while readLine() != nil {}
        center.close()
    }
}

/// One measured run of ping-pongs in one mode.
private struct NotifyPingPong {
    struct Result {
        var mode: NotifyBenchMode
        var oneWay: [UInt64]
        var halfRoundTrip: [UInt64]

        var row: String {
            func micro(_ samples: [UInt64], _ quantile: Double) -> String {
                let index = min(samples.count - 1, Int(Double(samples.count) * quantile))
                return String(format: "%8.1f us", Double(samples[index]) / 1000)
            }
            let name = mode.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            return "\(name) | \(micro(oneWay, 0.5)) | \(micro(oneWay, 0.99)) | \(micro(oneWay, 1)) | "
                + "\(micro(halfRoundTrip, 0.5)) | \(micro(halfRoundTrip, 0.99))"
        }
    }

    private final class Samples: Sendable {
        struct State {
            var remaining: Int
            var warmup: Int
            var pingSentAt: UInt64 = 0
            var oneWay: [UInt64] = []
            var halfRoundTrip: [UInt64] = []
        }
        let state: Mutex<State>
        let done = DispatchSemaphore(value: 0)

        init(iterations: Int, warmup: Int) {
            var initial = State(remaining: iterations + warmup, warmup: warmup)
            initial.oneWay.reserveCapacity(iterations)
            initial.halfRoundTrip.reserveCapacity(iterations)
            state = Mutex(initial)
        }
    }

    var mode: NotifyBenchMode
    var iterations: Int
    var warmup: Int

    func run() throws -> Result {
        let directory = "/tmp/gsb-\(getpid())-\(mode.rawValue)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        var hub: NotifyHub?
        let center: any DarwinNotificationCenter
        let peerPath: String
        switch mode {
        case .direct:
            center = try DirectNotificationCenter(directory: directory)
            peerPath = directory
        case .hub:
            let server = try NotifyHub(socketPath: directory + "/hub.sock")
            server.setLifecycle(.active, for: "bench")
            server.setLifecycle(.active, for: "peer")
            hub = server
            center = try HubNotificationCenter(hubSocketPath: server.socketPath, process: "bench")
            peerPath = server.socketPath
        }
        defer {
            center.close()
            hub?.close()
        }

        let peer = try ChildProcess.spawn(LaunchSpec(
            process: "notify-peer", executable: try RunCommand.ownExecutable(),
            arguments: ["bench", "notify-peer", "--mode", mode.rawValue, "--path", peerPath],
            standardError: .inherit))
        defer { peer.kill() }
        _ = try peer.readLine(timeout: .seconds(10), awaiting: "say it is ready")

        let samples = Samples(iterations: iterations, warmup: warmup)
        _ = try center.addObserver("pong") { delivery in
            let sendNext = samples.state.withLock { state -> Bool in
                if state.warmup > 0 {
                    state.warmup -= 1
                } else {
                    state.oneWay.append(delivery.latency)
                    state.halfRoundTrip.append((delivery.receivedAt - state.pingSentAt) / 2)
                }
                state.remaining -= 1
                if state.remaining == 0 { return false }
                state.pingSentAt = MonotonicClock.now()
                return true
            }
            if sendNext { try? center.post("ping") } else { samples.done.signal() }
        }
        samples.state.withLock { $0.pingSentAt = MonotonicClock.now() }
        try center.post("ping")
        guard samples.done.wait(timeout: .now() + .seconds(120)) == .success else {
            throw ValidationError("The \(mode.rawValue) ping-pong did not finish within 120 seconds.")
        }
        peer.closeInput()
        _ = try? peer.wait(timeout: .seconds(5))
        return samples.state.withLock { state in
            Result(mode: mode, oneWay: state.oneWay.sorted(), halfRoundTrip: state.halfRoundTrip.sorted())
        }
    }
}
