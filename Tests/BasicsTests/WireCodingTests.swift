import Basics
import Foundation
import Testing

/// `WireEncoder` and `WireDecoder`: every shape `Codable` gives (synthesized enums with and without
/// payloads, optionals, dictionaries keyed by strings and integers, nested arrays, `super`), the edges
/// of each number type, and any text, come back equal; what it writes is JSON; what does not fit fails
/// as a `DecodingError`.
@Suite struct WireCodingTests {
    indirect enum Shape: Codable, Equatable {
        case empty
        case labelled(name: String, size: Int?)
        case unlabelled(Int, [String])
        case nested(Shape?)
    }

    struct Everything: Codable, Equatable {
        var int = Int.min
        var int8 = Int8.min
        var int64 = Int64.max
        var uint64 = UInt64.max
        var uint8 = UInt8.max
        var double = 0.1
        var float: Float = 3.25
        var flag = true
        var text = "plain"
        var missing: String?
        var present: Int? = 0
        var shapes: [Shape] = [.empty, .labelled(name: "a", size: nil), .unlabelled(3, ["x", "y"]), .nested(.nested(.empty)), .nested(nil)]
        var byName: [String: [Int?]] = ["one": [1, nil], "": []]
        var byNumber: [Int: String] = [-1: "minus one", 7: "seven"]
        var matrix: [[UInt64]] = [[], [0, 1], [UInt64.max]]
        var date = Date(timeIntervalSinceReferenceDate: 1_234.5)
        var data = Data([0, 255, 10])
        var url = URL(fileURLWithPath: "/tmp/a b/c.sqlite")
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    }

    class Base: Codable {
        var base = 1
        init() {}
    }

    final class Derived: Base {
        var derived = "d"
        enum Keys: CodingKey { case derived }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            derived = try container.decode(String.self, forKey: .derived)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(derived, forKey: .derived)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test func everyShapeComesBackEqual() throws {
        var value = Everything()
        value.missing = nil
        let bytes = try WireEncoder().encode(value)
        #expect(try WireDecoder().decode(Everything.self, from: bytes) == value)
        // The text is JSON: Foundation reads it (the parts whose encoding the two agree on).
        #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
    }

    @Test func superEncodersNestUnderSuper() throws {
        let value = Derived()
        value.base = 42
        value.derived = "x"
        let line = try WireEncoder().encodeLine(value)
        #expect(line == #"{"derived":"x","super":{"base":42}}"#)
        let decoded = try WireDecoder().decode(Derived.self, from: line)
        #expect(decoded.base == 42 && decoded.derived == "x")
    }

    @Test func numbersAtTheirEdgesComeBackExactly() throws {
        let doubles: [Double] = [0, -0.0, 0.1, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 2.5, 1e16, 123_456_789.012_345_6]
        let decoded = try WireDecoder().decode([Double].self, from: WireEncoder().encode(doubles))
        #expect(decoded.map(\.bitPattern) == doubles.map(\.bitPattern))
        let special = try WireDecoder().decode([Double].self, from: WireEncoder().encode([Double.infinity, -.infinity, .nan]))
        #expect(special[0] == .infinity && special[1] == -.infinity && special[2].isNaN)
        let integers: [Int64] = [.min, -1, 0, 1, .max]
        #expect(try WireDecoder().decode([Int64].self, from: WireEncoder().encode(integers)) == integers)
        #expect(try WireEncoder().encodeLine([UInt64.max]) == "[18446744073709551615]")
    }

    @Test func anyTextComesBackUnchanged() throws {
        var random = SeededRandom(seed: 7)
        let pieces = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1B}[2J", "\u{7F}", "/", "é", "漢字", "🧪", "\u{200F}", "{}", "[", ":", "#", " ", "a"]
        for _ in 0..<500 {
            let text = (0..<Int(random.next(below: 12))).map { _ in pieces[Int(random.next(below: UInt64(pieces.count)))] }.joined()
            let line = try WireEncoder().encodeLine(["k\(text)": text])
            #expect(!line.contains("\n") && !line.contains("\u{1B}"))
            #expect(try WireDecoder().decode([String: String].self, from: line) == ["k\(text)": text])
            // Foundation reads the same string from it.
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String] == ["k\(text)": text])
        }
    }

    @Test func whatDoesNotFitFailsWithItsPath() throws {
        struct Small: Codable { var byte: UInt8; var names: [String] }
        #expect(throws: DecodingError.self) { try WireDecoder().decode(Small.self, from: #"{"byte":300,"names":[]}"#) }
        #expect(throws: DecodingError.self) { try WireDecoder().decode(Small.self, from: #"{"byte":1}"#) }
        #expect(throws: DecodingError.self) { try WireDecoder().decode(Small.self, from: #"{"byte":1,"names":[}"#) }
        #expect(throws: DecodingError.self) { try WireDecoder().decode(Small.self, from: #"{"byte":1,"names":[]} x"#) }
        do {
            _ = try WireDecoder().decode(Small.self, from: #"{"byte":1,"names":["a",2]}"#)
            Issue.record("a number decoded as a string")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["names", "Index 1"])
        }
        // Nesting deeper than the reader allows is refused, not a stack overflow.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: DecodingError.self) { try WireDecoder().decode([[Int]].self, from: deep) }
    }
}

extension WireCodingTests {
    @Test func sortedKeysFollowTheirBytesAtEveryLevel() throws {
        struct Pair: Encodable {
            var zeta = 1
            var alpha = ["b": 2, "a": 1, "B": 0, "é": 3]
        }
        #expect(try WireEncoder(sortsKeys: true).encodeLine(Pair()) == #"{"alpha":{"B":0,"a":1,"b":2,"é":3},"zeta":1}"#)
        #expect(try WireEncoder().encodeLine(Pair()).hasPrefix(#"{"zeta":1,"alpha":{"#))
    }
}
