/// A strict reader of one JSON text (RFC 8259): nil for anything it does not read exactly (a caller
/// may then fall back to `JSONDecoder`). A repeated key keeps its last value, as `JSONDecoder` does.
/// Nesting deeper than 64 levels is refused, so hostile text cannot exhaust the stack.
public struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    /// A reader of `bytes`, which must outlive it.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Whether only white space is left.
    public var atEnd: Bool {
        mutating get {
            skipSpace()
            return position == bytes.count
        }
    }

    /// The value that starts at the reader's position (after white space), or nil.
    public mutating func value() -> JSONValue? {
        skipSpace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        position += count
        return true
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { return nil }
        position += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            guard let item = value() else { return nil }
            fields[key] = item
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { return nil }
            position += 1
            return .object(fields)
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { return nil }
        position += 1
        var items: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            guard let item = value() else { return nil }
            items.append(item)
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { return nil }
            position += 1
            return .array(items)
        }
    }

    /// A string without escapes is taken as its bytes; one with escapes is decoded; invalid UTF-8, a
    /// control character or a lone surrogate gives nil.
    private mutating func string() -> String? {
        position += 1
        let start = position
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { return nil }
            if byte == UInt8(ascii: "\\") { escaped = true; position += 2; continue }
            position += 1
        }
        guard position < bytes.count else { return nil }
        let end = position
        position += 1
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard escaped else { return String(validating: raw, as: UTF8.self) }
        return unescape(raw)
    }

    private func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var value: UInt32 = 0
            for byte in raw[at..<(at + 4)] {
                value <<= 4
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value |= UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value |= UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value |= UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return nil }
            let next = raw[index + 1]
            index += 2
            switch next {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(next)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex(index) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                          let low = hex(index + 2), (0xDC00..<0xE000).contains(low) else { return nil }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let character = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: Array(String(character).utf8))
            default:
                return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// A number: an integer when it is one exactly and fits 64 bits (as `JSONDecoder` decodes an integer
    /// type from it), else a `Double`.
    private mutating func number() -> JSONValue? {
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        var integral = true
        var digits = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"): integral = false
            case UInt8(ascii: "-") where position > start: integral = false
            default:
                return finishNumber(start, integral: integral, digits: digits)
            }
            position += 1
        }
        return finishNumber(start, integral: integral, digits: digits)
    }

    private func finishNumber(_ start: Int, integral: Bool, digits: Int) -> JSONValue? {
        guard digits > 0 else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        // A leading zero is allowed only alone (JSON has no octal): leave such text to JSONDecoder.
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        if unsigned.count > 1, unsigned.hasPrefix("0"), unsigned.dropFirst().first?.isNumber == true { return nil }
        if integral, let value = Int64(text) { return .integer(value) }
        if integral, let value = UInt64(text) { return .largeInteger(value) }
        guard let value = Double(text), value.isFinite else { return nil }
        // JSONDecoder reads `1.0`, `1e3` as the integers they are exactly, as `TraceValue` then decodes them;
        // `-0.0` stays a number, its sign kept.
        if let exact = Int64(exactly: value), !(value == 0 && value.sign == .minus) { return .integer(exact) }
        return .number(value)
    }
}
