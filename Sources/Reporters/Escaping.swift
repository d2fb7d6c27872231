import Basics

/// Escaping for the formats reports are written in. Every piece of scenario-provided text (names,
/// values, step text, messages) goes through one of these before it reaches a file.
public enum Escape {
    /// Text safe inside HTML or SVG elements and double- or single-quoted attributes. Control characters
    /// but line feed and tab (an ANSI escape, a carriage return), and the characters that reorder text, are
    /// written as `\u{..}`, as `VisibleText` writes them: a page read with `cat`, or copied from, carries
    /// nothing a terminal would act on, and no value can make another look reversed.
    public static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            default:
                if VisibleText.needsEscape(scalar) {
                    out += VisibleText.escaped(String(scalar))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Text safe inside XML 1.0 elements: markup escaped, a carriage return written as a character
    /// reference (it reads back as itself, and a terminal showing the file never sees it), and the control
    /// characters XML cannot carry, or that a terminal acts on (C1 controls), replaced by U+FFFD.
    public static func xml(_ text: String) -> String {
        xml(text, breaks: false)
    }

    /// Text safe inside a double- or single-quoted XML 1.0 attribute: as `xml(_:)`, with line feeds and tabs
    /// written as character references too, which an XML reader keeps (it reads a raw one as a space).
    public static func xmlAttribute(_ text: String) -> String {
        xml(text, breaks: true)
    }

    private static func xml(_ text: String, breaks: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\n": out += breaks ? "&#10;" : "\n"
            case "\t": out += breaks ? "&#9;" : "\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || (0xD800...0xDFFF).contains(scalar.value)
                    || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Text safe in a Markdown table cell: pipes escaped, line breaks folded, HTML, links, images and code
    /// spans left inert (`[`, `]`, backquotes and backslashes escaped), terminal
    /// escapes and other control characters written as `\u{..}` (a summary is often read with `cat`).
    public static func markdownCell(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|": out += "\\|"
            // A link, an image or a code span from a scenario's or a store's text stays text.
            case "[", "]", "`", "\\": out += "\\" + String(character)
            case "\n", "\r", "\r\n": out += " "
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out += oneLine(String(character), limit: .max)
            }
        }
        return out
    }

    /// Text safe on one terminal or log line: terminal escape sequences and other control characters
    /// (newlines, U+0085, U+2028, bidirectional overrides) written as `\u{..}`, and at most `limit`
    /// characters (the rest counted, not printed).
    public static func oneLine(_ text: String, limit: Int = 2_000) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < limit else {
                return out + "… (\(text.unicodeScalars.count - limit) more characters)"
            }
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || category == .lineSeparator || category == .paragraphSeparator {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// A name safe as one path component: anything but letters, digits, `-`, `_` and `.` becomes `_`,
    /// and names made only of dots are prefixed.
    public static func pathComponent(_ name: String) -> String {
        var out = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        if out.isEmpty || out.allSatisfy({ $0 == "." }) { out = "_" + out }
        return out
    }
}
