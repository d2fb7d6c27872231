/// An element of a small XML document, as read by `XMLElements.parse`: its name, its attributes, its
/// child elements and where its start tag is. Text, comments, processing instructions and CDATA are
/// skipped: an Xcode model's `contents` says everything in elements and attributes.
struct ParsedXMLElement: Sendable, Hashable {
    var name: String
    var attributes: [String: String]
    var children: [ParsedXMLElement]
    /// 1-based line and column (in Unicode scalars) of the `<` that starts the element.
    var line: Int
    var column: Int

    /// The child elements named `name`, in document order.
    func children(named name: String) -> [ParsedXMLElement] { children.filter { $0.name == name } }
}

/// Why a document could not be read, and where.
struct XMLElementsError: Error, Sendable {
    var line: Int
    var column: Int
    var message: String
}

/// A reader of the XML an Xcode data model is kept in. It expands no entity beyond the five XML
/// predefines and character references, and reads no DTD (a document type declaration is skipped whole),
/// so a file made to expand or to fetch cannot: someone else's model is read in time linear in its size,
/// nested at most `maximumDepth` deep.
enum XMLElements {
    static let maximumDepth = 64

    /// The document's root element.
    static func parse(_ text: String) throws(XMLElementsError) -> ParsedXMLElement {
        var scanner = Scanner(bytes: Array(text.utf8))
        return try scanner.document()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var at = 0
        /// The position of `at`, kept as the scan moves (a column computed from the line's start would make
        /// a file of one long line quadratic to read).
        var line = 1
        var column = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() throws(XMLElementsError) -> ParsedXMLElement {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
            var root: ParsedXMLElement?
            while true {
                skipText()
                guard at < bytes.count else { break }
                if try skipMarkup() { continue }
                guard root == nil else { throw error("a second root element; a model file has one <model>") }
                root = try element(depth: 1)
            }
            guard let root else { throw error("no element; an Xcode model's contents file starts with <model>") }
            return root
        }

        func error(_ message: String) -> XMLElementsError {
            XMLElementsError(line: line, column: column, message: message)
        }

        mutating func advance() {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // A scalar's first byte: the next position is one column further (its continuation bytes are not).
                column += 1
            }
            at += 1
        }

        mutating func skipText() {
            while at < bytes.count, bytes[at] != UInt8(ascii: "<") { advance() }
        }

        func looking(at text: String) -> Bool {
            let want = Array(text.utf8)
            return at + want.count <= bytes.count && bytes[at..<at + want.count].elementsEqual(want)
        }

        /// Skips to just past `end`, or fails naming what was left open.
        mutating func skip(past end: String, what: String) throws(XMLElementsError) {
            while at < bytes.count {
                if looking(at: end) {
                    for _ in 0..<end.utf8.count { advance() }
                    return
                }
                advance()
            }
            throw error("the file ends inside \(what)")
        }

        /// Skips a comment, a processing instruction, CDATA or a declaration; false at a tag.
        mutating func skipMarkup() throws(XMLElementsError) -> Bool {
            if looking(at: "<!--") { try skip(past: "-->", what: "a comment"); return true }
            if looking(at: "<![CDATA[") { try skip(past: "]]>", what: "a CDATA section"); return true }
            if looking(at: "<?") { try skip(past: "?>", what: "a processing instruction"); return true }
            if looking(at: "<!") {
                // A document type declaration, with any internal subset in brackets: nothing in it is used.
                var brackets = 0
                while at < bytes.count {
                    let byte = bytes[at]
                    advance()
                    if byte == UInt8(ascii: "[") { brackets += 1 }
                    if byte == UInt8(ascii: "]") { brackets -= 1 }
                    if byte == UInt8(ascii: ">"), brackets <= 0 { return true }
                }
                throw error("the file ends inside a declaration")
            }
            return false
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF: true
            default: false
            }
        }

        mutating func name() throws(XMLElementsError) -> String {
            let start = at
            while at < bytes.count, Self.isNameByte(bytes[at]) { advance() }
            guard at > start else { throw error(at < bytes.count ? "a name was expected here" : "the file ends inside a tag") }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { advance() }
        }

        /// An element whose `<` is at the current position, with its children, up to its end tag.
        mutating func element(depth: Int) throws(XMLElementsError) -> ParsedXMLElement {
            guard depth <= XMLElements.maximumDepth else { throw error("elements nest more than \(XMLElements.maximumDepth) deep") }
            let startLine = line, startColumn = column
            advance()  // <
            if at < bytes.count, bytes[at] == UInt8(ascii: "/") { throw error("an end tag with no element open") }
            var element = ParsedXMLElement(name: try name(), attributes: [:], children: [], line: startLine, column: startColumn)
            while true {
                skipSpace()
                guard at < bytes.count else { throw error("the file ends inside <\(element.name)>") }
                if looking(at: "/>") {
                    advance(); advance()
                    return element
                }
                if bytes[at] == UInt8(ascii: ">") {
                    advance()
                    break
                }
                let keyAt = error("")
                let key = try name()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw error("'=' was expected after the attribute \(key)") }
                advance()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                    throw error("a quoted value was expected for the attribute \(key)")
                }
                let value = try quoted()
                guard element.attributes.updateValue(value, forKey: key) == nil else {
                    throw XMLElementsError(line: keyAt.line, column: keyAt.column, message: "the attribute \(key) is given twice")
                }
            }
            while true {
                skipText()
                guard at < bytes.count else { throw error("the file ends before </\(element.name)>") }
                if try skipMarkup() { continue }
                if looking(at: "</") {
                    let tag = error("")
                    advance(); advance()
                    let closing = try name()
                    guard closing == element.name else {
                        throw XMLElementsError(line: tag.line, column: tag.column, message: "</\(closing)> closes <\(element.name)>")
                    }
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw error("'>' was expected") }
                    advance()
                    return element
                }
                element.children.append(try self.element(depth: depth + 1))
            }
        }

        /// A quoted attribute value with its references expanded.
        mutating func quoted() throws(XMLElementsError) -> String {
            let quote = bytes[at]
            advance()
            var out: [UInt8] = []
            while at < bytes.count, bytes[at] != quote {
                if bytes[at] == UInt8(ascii: "&") {
                    let ampersand = error("")
                    let start = at
                    while at < bytes.count, bytes[at] != UInt8(ascii: ";"), at - start < 12 { advance() }
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else { throw error("an '&' that starts no reference") }
                    let reference = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
                    advance()
                    guard let expanded = Self.expand(reference) else {
                        throw XMLElementsError(line: ampersand.line, column: ampersand.column, message: "the reference &\(reference); is none XML defines")
                    }
                    out += Array(expanded.utf8)
                } else if bytes[at] == UInt8(ascii: "<") {
                    throw error("a '<' inside an attribute value")
                } else {
                    out.append(bytes[at])
                    advance()
                }
            }
            guard at < bytes.count else { throw error("the file ends inside an attribute value") }
            advance()
            return String(decoding: out, as: UTF8.self)
        }

        static func expand(_ reference: String) -> String? {
            switch reference {
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "quot": return "\""
            case "apos": return "'"
            default:
                let number: UInt32? = if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                    UInt32(reference.dropFirst(2), radix: 16)
                } else if reference.hasPrefix("#") {
                    UInt32(reference.dropFirst(), radix: 10)
                } else {
                    nil
                }
                return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
        }
    }
}
