import Foundation
@testable import ScenarioModel
import Testing
import TestSupport

@Suite struct LoaderTests {
    private func write(_ text: String, to name: String, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func loadsAFileAndNamesTheScenarioAfterIt() throws {
        let directory = try TemporaryDirectory()
        let url = try write(Fixture.yaml(steps: "  - app: launch"), to: "new-rows.yaml", in: directory)
        let scenario = try ScenarioLoader.load(contentsOf: url)
        #expect(scenario.name == "new-rows")
        #expect(scenario.file == url.path)
    }

    @Test func loadThrowsEveryErrorNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = try write(Fixture.yaml(steps: "  - ap: launch\n  - sleep: soon"), to: "broken.yaml", in: directory)
        do {
            _ = try ScenarioLoader.load(contentsOf: url)
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.count == 2)
            #expect(error.description.hasPrefix("\(url.path):\(Fixture.firstStepLine):5: error: unknown process 'ap'"))
        }
    }

    @Test func missingFileIsAPositionedError() {
        do {
            _ = try ScenarioLoader.load(contentsOf: URL(fileURLWithPath: "/nonexistent/x.yaml"))
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.first?.line == 1)
            #expect(error.errors.first?.message.hasPrefix("the file could not be read") == true)
        }
    }

    @Test func displayPathIsRelativeToTheWorkingDirectory() {
        let cwd = FileManager.default.currentDirectoryPath
        let url = URL(fileURLWithPath: cwd).appendingPathComponent("Scenarios/x.yaml")
        #expect(ScenarioLoader.displayPath(of: url) == "Scenarios/x.yaml")
    }

    @Test func discoversYamlFilesRecursivelySorted() throws {
        let directory = try TemporaryDirectory()
        let b = try write("", to: "b.yaml", in: directory)
        let a = try write("", to: "nested/a.yml", in: directory)
        let c = try write("", to: "c.YAML", in: directory)
        _ = try write("", to: "notes.txt", in: directory)
        let found = ScenarioLoader.discover(in: [directory.url, b])
        #expect(found.map(\.lastPathComponent) == [b, c, a].map(\.lastPathComponent))
    }

    @Test func duplicateNamesAcrossFilesAreAnError() throws {
        let directory = try TemporaryDirectory()
        _ = try write("name: same\n" + Fixture.yaml(steps: "  - app: launch"), to: "one.yaml", in: directory)
        _ = try write("name: same\n" + Fixture.yaml(steps: "  - app: launch"), to: "two.yaml", in: directory)
        do {
            _ = try ScenarioLoader.loadAll(in: [directory.url])
            Issue.record("expected an error")
        } catch {
            #expect(error.errors.count == 1)
            #expect(error.errors.first?.file.hasSuffix("two.yaml") == true)
            #expect(error.errors.first.map { "\($0.line):\($0.column)" } == "1:7")
            #expect(error.errors.first?.message.contains("is also used by") == true)
        }
    }

    @Test func summariesListEveryScenario() throws {
        let directory = try TemporaryDirectory()
        _ = try write(ContractExample.yaml, to: "refresh.yaml", in: directory)
        _ = try write(Fixture.yaml(steps: "  - app: launch"), to: "plain.yaml", in: directory)
        let summaries = try ScenarioLoader.summaries(in: [directory.url])
        #expect(summaries.map(\.name) == ["plain", "refresh-with-infinite-staleness"])
        #expect(summaries[0].variants.isEmpty)
        #expect(summaries[1].variants.count == 5)
    }
}
