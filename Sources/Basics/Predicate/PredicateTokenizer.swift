import Foundation

/// Splits predicate text into tokens, with offsets in Unicode scalars.
enum PredicateTokenizer {
    static func tokenize(_ text: String) throws(FetchPredicateError) -> [PredicateToken] {
        let scalars = Array(text.unicodeScalars)
        var tokens: [PredicateToken] = []
        var i = 0
        func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }
        func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.properties.isAlphabetic || isDigit(s) || s == "_" }
        while i < scalars.count {
            let s = scalars[i], start = i
            if s.properties.isWhitespace {
                i += 1
            } else if s == "'" || s == "\"" {
                var value = String.UnicodeScalarView()
                i += 1
                var closed = false
                while i < scalars.count {
                    let c = scalars[i]
                    if c == s { closed = true; i += 1; break }
                    if c == "\\", i + 1 < scalars.count {
                        let next = scalars[i + 1]
                        switch next {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        default: value.append(next)
                        }
                        i += 2
                        continue
                    }
                    value.append(c)
                    i += 1
                }
                guard closed else {
                    throw FetchPredicateError(message: "the quoted text that starts here is never closed; add \(s).", offset: start)
                }
                tokens.append(PredicateToken(kind: .text(String(value)), offset: start))
            } else if isDigit(s) || ((s == "-" || s == "+" || s == ".") && i + 1 < scalars.count && isDigit(scalars[i + 1])) {
                // Digits, a fraction and an exponent with its sign: `-3`, `2.5`, `1e-05`, `6.02E+23`.
                i += 1
                while i < scalars.count {
                    let c = scalars[i]
                    if isDigit(c) || c == "." {
                        i += 1
                    } else if (c == "e" || c == "E"), i + 1 < scalars.count,
                              isDigit(scalars[i + 1]) || ((scalars[i + 1] == "-" || scalars[i + 1] == "+") && i + 2 < scalars.count && isDigit(scalars[i + 2])) {
                        i += 2
                    } else {
                        break
                    }
                }
                if i < scalars.count, isWordScalar(scalars[i]) {
                    // `1e`, `2x`: a number run into letters is neither a number nor a name.
                    while i < scalars.count, isWordScalar(scalars[i]) { i += 1 }
                    let text = String(String.UnicodeScalarView(scalars[start..<i]))
                    throw FetchPredicateError(message: "'\(text)' is not a number; write 1e-05 or 0.00001, or quote text.", offset: start)
                }
                tokens.append(PredicateToken(kind: .number(String(String.UnicodeScalarView(scalars[start..<i]))), offset: start))
            } else if isWordScalar(s) || (s == "@" && i + 1 < scalars.count && isWordScalar(scalars[i + 1])) {
                // `@count` is one word: the key path's aggregate.
                if s == "@" { i += 1 }
                while i < scalars.count, isWordScalar(scalars[i]) { i += 1 }
                tokens.append(PredicateToken(kind: .word(String(String.UnicodeScalarView(scalars[start..<i]))), offset: start))
            } else {
                let pair = i + 1 < scalars.count ? String(String.UnicodeScalarView([s, scalars[i + 1]])) : ""
                if ["==", "!=", "<=", ">=", "=<", "=>", "<>", "&&", "||"].contains(pair) {
                    tokens.append(PredicateToken(kind: .symbol(pair), offset: start))
                    i += 2
                } else if "=<>!()[]{},.".unicodeScalars.contains(s) {
                    tokens.append(PredicateToken(kind: .symbol(String(s)), offset: start))
                    i += 1
                } else {
                    throw FetchPredicateError(message: "unexpected '\(s)' in the predicate.", offset: start)
                }
            }
        }
        tokens.append(PredicateToken(kind: .end, offset: scalars.count))
        return tokens
    }
}
