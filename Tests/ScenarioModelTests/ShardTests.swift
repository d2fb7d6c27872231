import Foundation
import ScenarioModel
import Testing

@Suite("shards of a CI matrix")
struct ShardTests {
    @Test(arguments: ["1/1", "1/3", "3/3", "12/40"])
    func acceptsOneBasedShards(_ text: String) throws {
        #expect(try #require(Shard(parsing: text)).description == text)
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "-1/2", "a/b", "1", "1/2/3", "/3", "1/", "", "9223372036854775808/2"])
    func rejectsAnythingElse(_ text: String) {
        #expect(Shard(parsing: text) == nil)
    }

    /// Every run of the bundled library falls to exactly one of 1/3, 2/3 and 3/3, and no shard is empty.
    @Test func shardsCoverEveryRunOfTheLibraryExactlyOnce() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios")
        let names = try ScenarioLoader.discover(in: [folder]).flatMap { file in
            try ScenarioLoader.load(contentsOf: file).runs().map { "\($0.scenario)/\($0.variant)" }
        }
        #expect(names.count > 20)
        let shards = (1...3).map { Shard(parsing: "\($0)/3")! }
        for name in names {
            #expect(shards.filter { $0.contains(name) }.count == 1, "\(name)")
        }
        for shard in shards {
            #expect(names.contains(where: shard.contains), "shard \(shard) is empty")
        }
        #expect(names.allSatisfy(Shard.whole.contains))
    }
}
