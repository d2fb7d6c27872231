import Basics
import Foundation
@testable import ScenarioModel
import Testing

/// The language reference's tables name every action word and every setting key the decoder takes: a
/// word or key added to the code fails here until Docs/ScenarioLanguage.md says what it does.
@Suite struct LanguageDocTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The words the first cells of `table`'s rows name: each backticked form's first word (`insert` of
    /// `insert: Entity`, `pin-generation` of `{ pin-generation: current }`).
    private func firstCellWords(after header: String) throws -> Set<String> {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Docs/ScenarioLanguage.md"), encoding: .utf8)
        let start = try #require(text.range(of: header), "'\(header)' heads a table")
        var words: Set<String> = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) {
            guard line.hasPrefix("|") else { break }
            let cell = line.dropFirst().prefix { $0 != "|" }
            for (index, chunk) in cell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                let form = chunk.hasPrefix("{ ") ? chunk.dropFirst(2) : chunk[...]
                words.insert(String(form.prefix { $0 != ":" && $0 != " " }))
            }
        }
        return words
    }

    @Test func theActionTableNamesEveryActionWord() throws {
        let named = try firstCellWords(after: "| action | arguments | `Step` case | defaults / notes |")
        let missing = Set(ActionWord.names).subtracting(named)
        #expect(missing.isEmpty, "actions without a row: \(missing.sorted())")
    }

    @Test func theSettingsTableNamesEverySettingKey() throws {
        let named = try firstCellWords(after: "| key | values | default | notes |")
        let missing = Set(SettingKey.allCases.map(\.rawValue)).subtracting(named)
        #expect(missing.isEmpty, "settings without a row: \(missing.sorted())")
        #expect(named.isSubset(of: Set(SettingKey.allCases.map(\.rawValue))), "rows naming no setting: \(named.subtracting(SettingKey.allCases.map(\.rawValue)).sorted())")
    }
}
