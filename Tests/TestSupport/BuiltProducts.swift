import Foundation

/// Locates executables that `swift build` / `swift test` put beside the test bundle,
/// so tests can start real child processes (`testpeer`, `groupsim`).
public enum BuiltProducts {
    /// The build products directory (e.g. `.build/debug`).
    public static var directory: URL {
        // The test binary lives in the products directory (on macOS inside an .xctest bundle).
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("testpeer").path) {
                return url
            }
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent()
    }

    /// The full path of the built executable named `name`.
    public static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
