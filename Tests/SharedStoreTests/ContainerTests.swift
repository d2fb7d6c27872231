import Foundation
import SharedStore
import Testing
import TestSupport

@Suite struct ContainerTests {
    @Test func registeredGroupResolvesToItsOwnDirectory() throws {
        let dir = try TemporaryDirectory()
        let containers = AppGroupContainers(root: dir.url, groups: ["group.example.notes", "group.other"])
        let url = try containers.storeURL(group: "group.example.notes", name: "Notes")
        #expect(url.lastPathComponent == "Notes.sqlite")
        #expect(FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
        #expect(try containers.containerURL(forSecurityApplicationGroupIdentifier: "group.other") != url.deletingLastPathComponent())
        let store = try StoreCoordinator(containers: containers, group: "group.example.notes", name: "Notes",
                                         model: Model(.notesExample))
        #expect(store.url == url)
    }

    @Test func unknownGroupIsATypedError() throws {
        let dir = try TemporaryDirectory()
        let containers = AppGroupContainers(root: dir.url, groups: ["group.example.notes"])
        #expect(throws: ContainerError.unknownGroup("group.missing", registered: ["group.example.notes"])) {
            try containers.containerURL(forSecurityApplicationGroupIdentifier: "group.missing")
        }
    }
}
