/// Text from someone else (a store's names and values, a file's path) made safe to print on one line: to a
/// terminal, into a `#` comment of a scenario file, into a log. A line break of any kind (LF, CR, NEL, LS,
/// PS), every other control character (an ANSI escape among them), the characters that reorder text
/// (bidirectional overrides and isolates) and a byte-order mark are written as escapes (`\n`, `\u{1B}`),
/// and a backslash is doubled, so that the text can neither start a line of its own nor drive what shows it.
/// Everything else is kept as it is.
///
/// ```swift
/// VisibleText.escaped("Notes\n\u{1B}[2J")   // "Notes\\n\\u{1B}[2J"
/// ```
public enum VisibleText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Bytes that should be UTF-8 text (a file name) made safe to print: the valid parts as `escaped`
    /// writes them, each byte that is not UTF-8 as `\x{FF}`.
    public static func escapedFileName(_ bytes: [UInt8]) -> String {
        var out = ""
        var start = 0
        while start < bytes.count {
            // The longest run from `start` that decodes, then one byte that does not.
            var end = bytes.count
            while end > start, String(validating: bytes[start..<end], as: UTF8.self) == nil { end -= 1 }
            if end > start {
                out += escaped(String(decoding: bytes[start..<end], as: UTF8.self))
                start = end
            } else {
                out += "\\x{" + String(bytes[start], radix: 16, uppercase: true) + "}"
                start += 1
            }
        }
        return out
    }

    /// Whether `text` prints as it is (nothing `escaped` would change).
    public static func isPlain(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 == "\\" || $0 == "\n" || $0 == "\r" || $0 == "\t" || needsEscape($0) }
    }

    /// Whether `escaped` writes `scalar` as an escape: a control character (line breaks and tabs among them,
    /// which have short ones), a bidirectional mark, a byte-order mark. A backslash is only doubled. For a
    /// writer that looks at one scalar at a time, without making a string of it.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) || value == 0x2028 || value == 0x2029
            || value == 0xFEFF || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }
}
