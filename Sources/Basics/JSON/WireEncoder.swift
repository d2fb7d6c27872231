/// Encodes an `Encodable` value as one line of JSON, the text the runner and its agents exchange.
///
/// Foundation's `JSONEncoder` spends most of a small message's time in dynamic casts and generic
/// metadata lookups (it asks each value whether it is a `Date`, `Data`, `URL`, a dictionary...); a
/// deterministic run sends several messages a step, and they were its largest cost. This encoder knows
/// no special types: every value encodes itself through the `Codable` containers, so `WireDecoder` (and
/// only it) reads the text back to equal values. Keys keep the order they were encoded in; a key
/// encoded twice is written twice and read back as its last value. A non-finite number is written as
/// the string `nan`, `inf` or `-inf`.
public struct WireEncoder: Sendable {
    /// Whether each object's keys are written in the order of their UTF-8 bytes (as a trace's lines
    /// are), rather than in the order they were encoded.
    public var sortsKeys: Bool

    public init(sortsKeys: Bool = false) {
        self.sortsKeys = sortsKeys
    }

    /// The value's JSON text, as bytes (no trailing newline).
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try encode(value, appendingTo: &out)
        return out
    }

    /// Appends the value's JSON text to `out`.
    public func encode<T: Encodable>(_ value: T, appendingTo out: inout [UInt8]) throws {
        let root = try WireEncoding.node(for: value, path: nil)
        root.write(to: &out, sortingKeys: sortsKeys)
    }

    /// The value's JSON text (no trailing newline).
    public func encodeLine<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}

/// A value being encoded: a leaf, or a container that the `Codable` containers fill in place.
enum WireNode {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case object(WireObject)
    case array(WireArray)
    /// What an encoder handed out for a nested value (`superEncoder`) encodes, read when written.
    case deferred(WireEncoding)

    func write(to out: inout [UInt8], sortingKeys: Bool) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .integer(let value): JSONText.appendInteger(value, to: &out)
        case .unsigned(let value): JSONText.appendInteger(value, to: &out)
        case .number(let value): JSONText.appendNumber(value, to: &out)
        case .string(let text): JSONText.appendString(text, to: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            let order = sortingKeys ? object.sortedIndices : Array(object.keys.indices)
            for (position, index) in order.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(object.keys[index], to: &out)
                out.append(UInt8(ascii: ":"))
                object.values[index].write(to: &out, sortingKeys: sortingKeys)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for index in array.items.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                array.items[index].write(to: &out, sortingKeys: sortingKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .deferred(let encoder):
            (encoder.node ?? .object(WireObject())).write(to: &out, sortingKeys: sortingKeys)
        }
    }
}

/// An object's members in the order they were encoded.
final class WireObject {
    var keys: [String] = []
    var values: [WireNode] = []

    func append(_ key: String, _ value: WireNode) {
        keys.append(key)
        values.append(value)
    }

    /// The members' indices in the order of their keys' UTF-8 bytes; of two equal keys, the later
    /// stays later (and is the one read back).
    var sortedIndices: [Int] {
        keys.indices.sorted { left, right in
            let (a, b) = (keys[left], keys[right])
            if a == b { return left < right }
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

final class WireArray {
    var items: [WireNode] = []
}

/// The `Encoder` a value encodes itself through: it holds the node the value made.
final class WireEncoding: Encoder {
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: WireNode?

    init(path: WirePath?) {
        self.path = path
    }

    /// The node `value` encodes to; a value that encodes nothing is an empty object, as in `JSONEncoder`.
    static func node<T: Encodable>(for value: T, path: WirePath?) throws -> WireNode {
        let encoder = WireEncoding(path: path)
        try value.encode(to: encoder)
        return encoder.node ?? .object(WireObject())
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let object)? = node {
            return KeyedEncodingContainer(WireKeyedEncoding<Key>(object: object, path: path))
        }
        let object = WireObject()
        node = .object(object)
        return KeyedEncodingContainer(WireKeyedEncoding<Key>(object: object, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array)? = node { return WireUnkeyedEncoding(array: array, path: path) }
        let array = WireArray()
        node = .array(array)
        return WireUnkeyedEncoding(array: array, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        WireSingleValueEncoding(encoder: self)
    }
}

struct WireKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireObject
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }

    private func path(_ key: Key) -> WirePath { WirePath(WireKey(stringValue: key.stringValue), under: path) }

    mutating func encodeNil(forKey key: Key) { object.append(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) { object.append(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { object.append(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) { object.append(key.stringValue, .number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) { object.append(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) { object.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) { object.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) { object.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) { object.append(key.stringValue, .integer(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) { object.append(key.stringValue, .integer(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) { object.append(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) { object.append(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) { object.append(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) { object.append(key.stringValue, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) { object.append(key.stringValue, .unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.append(key.stringValue, try WireEncoding.node(for: value, path: path(key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireObject()
        object.append(key.stringValue, .object(nested))
        return KeyedEncodingContainer(WireKeyedEncoding<NestedKey>(object: nested, path: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        object.append(key.stringValue, .array(nested))
        return WireUnkeyedEncoding(array: nested, path: path(key))
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: WireKey.superKey) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: WireKey(stringValue: key.stringValue)) }

    private func superEncoder(named key: WireKey) -> any Encoder {
        let encoder = WireEncoding(path: WirePath(key, under: path))
        object.append(key.stringValue, .deferred(encoder))
        return encoder
    }
}

struct WireUnkeyedEncoding: UnkeyedEncodingContainer {
    let array: WireArray
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }
    var count: Int { array.items.count }

    private var nextPath: WirePath { WirePath(WireKey(index: array.items.count), under: path) }

    mutating func encodeNil() { array.items.append(.null) }
    mutating func encode(_ value: Bool) { array.items.append(.bool(value)) }
    mutating func encode(_ value: String) { array.items.append(.string(value)) }
    mutating func encode(_ value: Double) { array.items.append(.number(value)) }
    mutating func encode(_ value: Float) { array.items.append(.number(Double(value))) }
    mutating func encode(_ value: Int) { array.items.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) { array.items.append(.integer(value)) }
    mutating func encode(_ value: UInt8) { array.items.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) { array.items.append(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try WireEncoding.node(for: value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nestedPath = nextPath
        let nested = WireObject()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(WireKeyedEncoding<NestedKey>(object: nested, path: nestedPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nestedPath = nextPath
        let nested = WireArray()
        array.items.append(.array(nested))
        return WireUnkeyedEncoding(array: nested, path: nestedPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = WireEncoding(path: nextPath)
        array.items.append(.deferred(encoder))
        return encoder
    }
}

struct WireSingleValueEncoding: SingleValueEncodingContainer {
    let encoder: WireEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.node = .null }
    mutating func encode(_ value: Bool) { encoder.node = .bool(value) }
    mutating func encode(_ value: String) { encoder.node = .string(value) }
    mutating func encode(_ value: Double) { encoder.node = .number(value) }
    mutating func encode(_ value: Float) { encoder.node = .number(Double(value)) }
    mutating func encode(_ value: Int) { encoder.node = .integer(Int64(value)) }
    mutating func encode(_ value: Int8) { encoder.node = .integer(Int64(value)) }
    mutating func encode(_ value: Int16) { encoder.node = .integer(Int64(value)) }
    mutating func encode(_ value: Int32) { encoder.node = .integer(Int64(value)) }
    mutating func encode(_ value: Int64) { encoder.node = .integer(value) }
    mutating func encode(_ value: UInt) { encoder.node = .unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) { encoder.node = .unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) { encoder.node = .unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) { encoder.node = .unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) { encoder.node = .unsigned(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try WireEncoding.node(for: value, path: encoder.path)
    }
}

/// A coding path as a chain from the leaf up, so that going one level deeper costs one small
/// allocation instead of a copy of the whole path; read (rarely: in errors) as an array.
final class WirePath: Sendable {
    let key: any CodingKey & Sendable
    let parent: WirePath?

    init(_ key: any CodingKey & Sendable, under parent: WirePath?) {
        self.key = key
        self.parent = parent
    }

    static func keys(of path: WirePath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = path
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// A coding key for an array index or `super`, in coding paths.
struct WireKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(index: Int) { self.init(intValue: index) }

    static let superKey = WireKey(stringValue: "super")
}
