import Basics
import Foundation

/// One change-set file: the changes one store exported in one sync (or its baseline at leech).
/// See `Docs/Sync.md` for the format.
struct ChangeSet: Codable, Sendable {
    static let currentFormat = "groupsim.sync/1"

    /// `groupsim.sync/1`.
    var format: String = ChangeSet.currentFormat
    /// The exporting store's ensemble identifier.
    var store: String
    /// The store's export number: 1 for the baseline, then one more per export.
    var sequence: Int64
    /// Whether this is the store's baseline (its whole contents when it leeched).
    var baseline: Bool
    /// When it was exported, seconds since 2001 on the exporting store's clock.
    var exportedAt: Double
    /// The model's version hash: a store refuses change sets of another model.
    var model: String
    /// The changes, one per object.
    var changes: [ObjectChange]

    /// The file name: `<store>.<sequence, 6 digits>.json`.
    var fileName: String { ChangeSet.fileName(store: store, sequence: sequence) }

    static func fileName(store: String, sequence: Int64) -> String {
        let digits = String(sequence)
        return "\(store).\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).json"
    }

    /// The store identifier and sequence of a change-set file name, or `nil` for another file.
    static func parse(fileName name: String) -> (store: String, sequence: Int64)? {
        guard name.hasSuffix(".json") else { return nil }
        let stem = name.dropLast(5)
        guard let dot = stem.lastIndex(of: "."), let sequence = Int64(stem[stem.index(after: dot)...]) else { return nil }
        let store = String(stem[..<dot])
        return store.isEmpty ? nil : (store, sequence)
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws -> ChangeSet {
        try JSONDecoder().decode(ChangeSet.self, from: data)
    }
}

/// One object's change in a change set.
struct ObjectChange: Codable, Sendable {
    /// The ensemble-wide global identifier.
    var id: String
    var entity: String
    var operation: ChangeOperation
    /// The latest of the property times (for a delete: when it was deleted), seconds since 2001.
    var time: Double
    /// The changed properties (all of them for an insert; none for a delete).
    var properties: [String: PropertyChange]
}

/// A property's new value and when it was set (seconds since 2001 on the exporting store's clock).
struct PropertyChange: Codable, Sendable, Equatable {
    var time: Double
    var value: SyncValue
}

/// A property value in a change set: an attribute value, or a relationship as global identifiers.
enum SyncValue: Codable, Sendable, Equatable {
    case value(Value)
    /// A to-one relationship: the destination's global identifier, or nil.
    case reference(String?)
    /// A many-to-many relationship: the destinations' global identifiers, sorted.
    case references([String])

    private enum Key: String, CodingKey { case type, value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .value(let value):
            switch value {
            case .null: try container.encode("null", forKey: .type)
            case .string(let s): try container.encode("string", forKey: .type); try container.encode(s, forKey: .value)
            case .int(let i): try container.encode("int", forKey: .type); try container.encode(i, forKey: .value)
            case .double(let d): try container.encode("double", forKey: .type); try container.encode(d, forKey: .value)
            case .bool(let b): try container.encode("bool", forKey: .type); try container.encode(b, forKey: .value)
            case .date(let d):
                try container.encode("date", forKey: .type)
                try container.encode(d.timeIntervalSinceReferenceDate, forKey: .value)
            case .uuid(let u): try container.encode("uuid", forKey: .type); try container.encode(u.uuidString, forKey: .value)
            }
        case .reference(let id):
            try container.encode("ref", forKey: .type)
            try container.encode(id, forKey: .value)
        case .references(let ids):
            try container.encode("refs", forKey: .type)
            try container.encode(ids, forKey: .value)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "null": self = .value(.null)
        case "string": self = .value(.string(try container.decode(String.self, forKey: .value)))
        case "int": self = .value(.int(try container.decode(Int64.self, forKey: .value)))
        case "double": self = .value(.double(try container.decode(Double.self, forKey: .value)))
        case "bool": self = .value(.bool(try container.decode(Bool.self, forKey: .value)))
        case "date": self = .value(.date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: .value))))
        case "uuid":
            let text = try container.decode(String.self, forKey: .value)
            guard let uuid = UUID(uuidString: text) else {
                throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "not a UUID: \(text)")
            }
            self = .value(.uuid(uuid))
        case "ref": self = .reference(try container.decodeIfPresent(String.self, forKey: .value))
        case "refs": self = .references(try container.decode([String].self, forKey: .value))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown value type \(type)")
        }
    }
}
