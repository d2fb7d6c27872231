import Foundation

/// Each history consumer's last token, kept in the group container beside the store (the app-group
/// `UserDefaults` pattern): `<container>/<store name>.history/<consumer>.json` holding `{"token": n}`.
/// One file per consumer, written atomically, so consumers in different processes never overwrite each other.
struct HistoryTokenStore {
    let directory: URL

    init(storeURL: URL) {
        let name = storeURL.deletingPathExtension().lastPathComponent
        directory = storeURL.deletingLastPathComponent().appendingPathComponent("\(name).history", isDirectory: true)
    }

    private func file(_ consumer: String) -> URL {
        let safe = String(consumer.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        return directory.appendingPathComponent("\(safe).json")
    }

    /// Whether the consumer is registered, its token (`nil` when it has none yet), and the identifier of
    /// the store the token was saved for (`nil` in files that predate it).
    func token(_ consumer: String) -> (registered: Bool, token: Int64?, store: String?) {
        guard let data = try? Data(contentsOf: file(consumer)) else { return (false, nil, nil) }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        return (true, (object?["token"] as? NSNumber)?.int64Value, object?["store"] as? String)
    }

    func setToken(_ token: Int64?, _ consumer: String, store: String) throws(StoreError) {
        let json = "{\"consumer\":\(quoted(consumer)),\"store\":\(quoted(store)),\"token\":\(token.map(String.init) ?? "null")}"
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(json.utf8).write(to: file(consumer), options: .atomic)
        } catch {
            throw .file(path: file(consumer).path, reason: "\(error)")
        }
    }

    /// Every registered consumer's name.
    func consumers() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.compactMap { name in
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(name)),
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else { return nil }
            return object["consumer"] as? String
        }.sorted()
    }

    private func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
