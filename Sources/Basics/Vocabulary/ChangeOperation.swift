/// What a committed change did to a row: the store's history, its change sets and the trace all say
/// it in these words.
public enum ChangeOperation: String, Sendable, Hashable, Codable, CaseIterable {
    case insert
    case update
    case delete
}
