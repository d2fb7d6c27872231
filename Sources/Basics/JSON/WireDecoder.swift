/// Decodes what `WireEncoder` wrote (or any JSON text whose shape the type's `Codable` conformance
/// reads): strictly parsed by `JSONReader`, then decoded through the `Codable` containers with no
/// special types. Errors are `DecodingError`s with the coding path.
public struct WireDecoder: Sendable {
    public init() {}

    /// Decodes `type` from one JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        var reader = JSONReader(bytes)
        guard let value = reader.value(), reader.atEnd else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not one JSON text"))
        }
        return try T(from: WireDecoding(value: value, path: nil))
    }

    /// Decodes `type` from one line of JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from line: String) throws -> T {
        var line = line
        return try line.withUTF8 { try decode(type, from: $0) }
    }

    /// Decodes `type` from JSON text bytes.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBufferPointer { try decode(type, from: $0) }
    }
}

/// The `Decoder` a value decodes itself from: one parsed JSON value.
struct WireDecoding: Decoder {
    let value: JSONValue
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else {
            throw WireDecoding.mismatch([String: JSONValue].self, value, path)
        }
        return KeyedDecodingContainer(WireKeyedDecoding<Key>(fields: fields, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw WireDecoding.mismatch([JSONValue].self, value, path) }
        return WireUnkeyedDecoding(items: items, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        WireSingleValueDecoding(value: value, path: path)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: WirePath?) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: WirePath.keys(of: path), debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: WirePath.keys(of: path), debugDescription: "found \(value.kindName)"))
    }

    /// Decodes a value of `type` from one JSON value.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, path: WirePath?) throws -> T {
        try T(from: WireDecoding(value: value, path: path))
    }

    static func integer<T: FixedWidthInteger>(_ type: T.Type, from value: JSONValue, path: WirePath?) throws -> T {
        let result: T?
        switch value {
        case .integer(let number): result = T(exactly: number)
        case .largeInteger(let number): result = T(exactly: number)
        default: throw mismatch(type, value, path)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(.init(codingPath: WirePath.keys(of: path), debugDescription: "\(value) does not fit \(type)"))
        }
        return result
    }

    static func number(from value: JSONValue, path: WirePath?) throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .largeInteger(let number): return Double(number)
        case .number(let number): return number
        case .string("nan"): return .nan
        case .string("inf"): return .infinity
        case .string("-inf"): return -.infinity
        default: throw mismatch(Double.self, value, path)
        }
    }
}

extension JSONValue {
    /// What the value is, for an error.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .largeInteger, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

struct WireKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }
    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\""))
        }
        return value
    }

    private func path(_ key: Key) -> WirePath { WirePath(WireKey(stringValue: key.stringValue), under: path) }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try value(key)
        guard case .bool(let flag) = value else { throw WireDecoding.mismatch(type, value, path(key)) }
        return flag
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try value(key)
        guard case .string(let text) = value else { throw WireDecoding.mismatch(type, value, path(key)) }
        return text
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try WireDecoding.number(from: value(key), path: path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try WireDecoding.integer(type, from: value(key), path: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try WireDecoding.integer(type, from: value(key), path: path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try WireDecoding.decode(type, from: value(key), path: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try WireDecoding(value: value(key), path: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try WireDecoding(value: value(key), path: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        WireDecoding(value: fields[WireKey.superKey.stringValue] ?? .null, path: WirePath(WireKey.superKey, under: path))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        WireDecoding(value: fields[key.stringValue] ?? .null, path: path(key))
    }
}

struct WireUnkeyedDecoding: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }
    private(set) var currentIndex = 0

    init(items: [JSONValue], path: WirePath?) {
        self.items = items
        self.path = path
    }

    private var nextPath: WirePath { WirePath(WireKey(index: currentIndex), under: path) }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, WirePath) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the array has no more values"))
        }
        let result = (items[currentIndex], nextPath)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Never.self, .init(codingPath: codingPath, debugDescription: "the array has no more values"))
        }
        guard case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (value, path) = try next(type)
        return try WireDecoding.number(from: value, path: path)
    }

    mutating func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try WireDecoding.integer(type, from: value, path: path)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try WireDecoding.decode(type, from: value, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next([String: JSONValue].self)
        return try WireDecoding(value: value, path: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try WireDecoding(value: value, path: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return WireDecoding(value: value, path: path)
    }
}

struct WireSingleValueDecoding: SingleValueDecodingContainer {
    let value: JSONValue
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(of: path) }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw WireDecoding.mismatch(type, value, path) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw WireDecoding.mismatch(type, value, path) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try WireDecoding.number(from: value, path: path) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try WireDecoding.integer(type, from: value, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try WireDecoding.integer(type, from: value, path: path) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try WireDecoding.decode(type, from: value, path: path)
    }
}
