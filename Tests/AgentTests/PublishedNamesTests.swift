import Foundation
import Testing
import TestSupport
@testable import Agent

/// The run's record of global identifiers by scenario id, shared by the processes through a file.
@Suite struct PublishedNamesTests {
    @Test func twoProcessesPublishAndEachReadsBoth() throws {
        let dir = try TemporaryDirectory()
        let transfer = URL(fileURLWithPath: dir.path("transfer"))
        var phone = PublishedNames(transferDirectory: transfer)
        var watch = PublishedNames(transferDirectory: transfer)
        #expect(phone.read().isEmpty)
        phone.publish(["n1": "g-phone-1", "n3": "g-phone-3"])
        watch.publish(["n2": "g-watch-2", "n1": "g-watch-1"])
        // Published again: written once.
        phone.publish(["n1": "g-phone-1"])
        let read = watch.read()
        #expect(read == ["n1": ["g-phone-1", "g-watch-1"], "n2": ["g-watch-2"], "n3": ["g-phone-3"]])
        let text = try String(contentsOf: transfer.appendingPathComponent(".names"), encoding: .utf8)
        #expect(text.split(separator: "\n").count == 4)
        // A line that is not a pair is skipped.
        try (text + "garbage\n").write(to: transfer.appendingPathComponent(".names"), atomically: true, encoding: .utf8)
        #expect(phone.read() == read)
    }

    @Test func aLineStillBeingWrittenWaitsAndTheLinesBeforeItAreRead() throws {
        let dir = try TemporaryDirectory()
        let transfer = URL(fileURLWithPath: dir.path("transfer"))
        var phone = PublishedNames(transferDirectory: transfer)
        phone.publish(["n1": "g-1"])
        // Another process's append seen half done: cut inside a two-byte character, no newline yet.
        let names = transfer.appendingPathComponent(".names")
        var bytes = try Data(contentsOf: names)
        bytes.append(contentsOf: Array("ü1\tg-ü".utf8).dropLast())
        try bytes.write(to: names)
        #expect(phone.read() == ["n1": ["g-1"]])
        // The append finished: the line counts.
        bytes.append(contentsOf: Array("ü\n".utf8).suffix(2))
        try bytes.write(to: names)
        #expect(phone.read() == ["n1": ["g-1"], "ü1": ["g-ü"]])
    }
}
