import Foundation
import PackagePlugin

/// `swift package groupsim-check validate|list …`: the read-only commands, with no permission to ask
/// for. SwiftPM grants a plugin's permissions for all its commands at once, so `groupsim`'s plugin,
/// which writes `Reports/`, needs `--allow-writing-to-package-directory` even to list scenarios.
@main
struct GroupSimCheckPlugin: CommandPlugin {
    static let commands: Set<String> = ["validate", "list"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let command = arguments.first, Self.commands.contains(command) else {
            let given = arguments.first.map { "'\($0)' is not one of them" } ?? "give one"
            Diagnostics.error("groupsim-check runs validate or list (\(given)); the commands that write reports run "
                + "through swift package --allow-writing-to-package-directory groupsim …")
            return
        }
        let tool = try context.tool(named: "groupsim")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("groupsim \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
    }
}
