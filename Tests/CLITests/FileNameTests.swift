import Foundation
import Testing
import TestSupport

/// A file's name is someone else's text: what `validate` prints of it stays on its line and drives no
/// terminal, and a name that is not UTF-8 is named as such, its bytes shown escaped (issue 35).
@Suite struct FileNameTests {
    @Test func aNameThatIsNotUTF8IsSaidToBeSoWithItsBytesEscaped() throws {
        let cli = try CLI()
        let result = try cli.runThroughShell("validate \"$(printf 'bad\\377name.yaml')\"")
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad\\x{FF}name.yaml: the name is not UTF-8"), "\(result.transcript)")
    }

    @Test func aFileInAFolderWhoseNameIsNotUTF8IsAnErrorOfThatFile() throws {
        let cli = try CLI()
        let folder = cli.directory.url.appendingPathComponent("odd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let scenario = try String(contentsOf: cli.directory.url.appendingPathComponent("pass.yaml"), encoding: .utf8)
        try scenario.write(to: folder.appendingPathComponent("pass.yaml"), atomically: true, encoding: .utf8)
        let copied = try cli.runThroughShell("validate odd && cp odd/pass.yaml \"odd/$(printf 'x\\377.yaml')\"")
        #expect(copied.status == 0, "\(copied.transcript)")
        let result = try cli.run("validate", "odd")
        #expect(result.status == 2)
        #expect(result.stderr.contains("the file's name is not UTF-8"), "\(result.transcript)")
        #expect(result.stdout.contains("odd/pass.yaml: ok"), "the other file is still validated: \(result.transcript)")
    }

    @Test(arguments: ["inspect", "import"])
    func aStoreWhoseNameIsNotUTF8IsSaidToBeSo(command: String) throws {
        let cli = try CLI()
        let result = try cli.runThroughShell("\(command) \"$(printf 'dev\\377ice.sqlite')\"\(command == "import" ? " -o x.yaml" : "")")
        #expect(result.status == 1)
        #expect(result.stderr.contains("groupsim \(command): dev\\x{FF}ice.sqlite: the name is not UTF-8"), "\(result.transcript)")
    }

    @Test func listPrintsAFilesNameAndSummaryEscaped() throws {
        let cli = try CLI()
        let scenario = try String(contentsOf: cli.directory.url.appendingPathComponent("pass.yaml"), encoding: .utf8)
        let lines = scenario.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("summary:") ? "name: ok\nsummary: \"\\e]0;title\\a\\rforged\"" : String(line)
        }
        try FileManager.default.createDirectory(at: cli.directory.url.appendingPathComponent("d"), withIntermediateDirectories: true)
        try lines.joined(separator: "\n").write(to: cli.directory.url.appendingPathComponent("d/pass.yaml"), atomically: true, encoding: .utf8)
        #expect(try cli.shell("mv d/pass.yaml \"d/$(printf 'ok\\033[2J.yaml')\"").status == 0)
        let result = try cli.run("list", "d")
        #expect(result.status == 0, "\(result.transcript)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.transcript)")
        #expect(result.stdout.contains("file: ") && result.stdout.contains("ok\\u{1B}[2J.yaml"), "\(result.transcript)")
        #expect(result.stdout.contains("\\u{1B}]0;title\\u{7}\\rforged"), "\(result.transcript)")
    }

    @Test func aNameWithControlCharactersIsPrintedEscaped() throws {
        let cli = try CLI()
        let result = try cli.runThroughShell("validate \"$(printf 'esc\\033]0;title\\007.yaml')\" 2>&1; cp pass.yaml \"$(printf 'ok\\033[2J.yaml')\"; true")
        #expect(!result.stdout.contains("\u{1B}"), "\(result.transcript)")
        let named = try cli.runThroughShell("validate \"$(printf 'ok\\033[2J.yaml')\"")
        #expect(named.stdout.isEmpty || !named.stdout.contains("\u{1B}"))
        #expect(!named.stderr.contains("\u{1B}") && named.stderr.contains("ok\\u{1B}[2J.yaml:1:1: error"), "\(named.transcript)")
    }
}
