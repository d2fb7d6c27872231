import Foundation
import PackagePlugin

/// `swift package groupsim <command> …`: runs the `groupsim` executable (built for this machine by
/// SwiftPM) in the package's directory, so `swift package groupsim run Scenarios` writes `Reports/`.
@main
struct GroupSimPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "groupsim")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("groupsim \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
    }
}
