import Agent
import ArgumentParser
import Foundation
import Supervisor

/// `groupsim agent --config <file>`: the child process the runner starts for each scenario
/// process. Hidden: people never run it by hand.
struct AgentCommandLine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Run one simulated app or extension (started by the runner).",
        shouldDisplay: false
    )

    @Option(help: "The agent's JSON config, written by the runner.")
    var config: String?

    @Flag(help: "Wait for configs on stdin, one process after another (the deterministic mode's pool).")
    var standby = false

    func validate() throws {
        guard standby != (config != nil) else { throw ValidationError("give --config or --standby.") }
    }

    func run() throws {
        // Never outlive the runner, even when it is SIGKILLed.
        ProcessGuard.dieWithParent()
        signal(SIGPIPE, SIG_IGN)
        guard let config else {
            let status = AgentProcess.standby()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let configuration: AgentConfig
        do {
            configuration = try AgentWire.decode(AgentConfig.self, from: [UInt8](Data(contentsOf: URL(fileURLWithPath: config))))
        } catch {
            FileHandle.standardError.write(Data("agent: cannot read config \(config): \(error)\n".utf8))
            throw ExitCode(2)
        }
        let agent: AgentProcess
        do {
            agent = try AgentProcess.spawned(config: configuration)
        } catch {
            // A store that does not load is the process's outcome, which the runner records; anything
            // else means the agent could not start.
            if let reply = AgentProcess.loadFailureReply(error), let data = try? JSONEncoder().encode(reply) {
                FileHandle.standardOutput.write(Data((String(decoding: data, as: UTF8.self) + "\n").utf8))
            }
            FileHandle.standardError.write(Data("agent \(configuration.process): cannot open its store: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let status = agent.run()
        if status != 0 { throw ExitCode(status) }
    }
}
