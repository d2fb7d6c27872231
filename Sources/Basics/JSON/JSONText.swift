/// Writing JSON text into a byte buffer: strings escaped as RFC 8259 requires (quote, backslash and
/// control characters; `/` and non-ASCII text as they are), numbers in the shortest form that reads
/// back exactly.
public enum JSONText {
    /// Appends `text` as a JSON string, quotes included.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    let digits = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: Array("u00".utf8))
                    out.append(digits[Int(byte >> 4)])
                    out.append(digits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends an integer's decimal digits.
    public static func appendInteger<T: BinaryInteger>(_ value: T, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }

    /// Appends a finite number in the shortest text that reads back as the same `Double`; the
    /// non-finite ones have no JSON number, and are written as the strings `nan`, `inf` and `-inf`.
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            appendString(value.isNaN ? "nan" : value < 0 ? "-inf" : "inf", to: &out)
            return
        }
        out.append(contentsOf: value.description.utf8)
    }
}
