import Reporters

/// How this groupsim was started, as words a user can paste to start it the same way again (the
/// console's replay lines): a build of the package is started through `swift run` in its configuration,
/// so a release binary's replay does not first make a debug build; any other binary by the path it
/// was started with.
enum Invocation {
    static let command: String = command(startedAs: CommandLine.arguments.first ?? "groupsim")

    /// The words for a binary started as `argument` (its `argv[0]`).
    static func command(startedAs argument: String) -> String {
        let components = argument.split(separator: "/").map(String.init)
        if let build = components.lastIndex(of: ".build") {
            let inside = components[(build + 1)...]
            if inside.contains("release") { return "swift run -c release groupsim" }
            if inside.contains("debug") { return "swift run groupsim" }
        }
        return ConsoleReport.shellQuoted(argument)
    }
}
