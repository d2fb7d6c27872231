import Basics
import Yams

/// Reading a file's text into its node tree.
extension NodeDecoder {
    /// The file's composed tree, or nil with an error recorded: text the guard refuses (`YAMLGuard`), a
    /// syntax error at its position, or an empty file (`ifEmpty` says what the file should hold).
    func compose(_ yaml: String, ifEmpty: String) -> YAMLNode? {
        lines = LineMap(yaml)
        if let refusal = YAMLGuard.check(yaml) {
            error(refusal.message, yamlLine: refusal.line, column: refusal.column)
            return nil
        }
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                error(ifEmpty, line: 1, column: 1)
                return nil
            }
            return YAMLNode(node)
        } catch {
            reportSyntaxError(error, in: yaml)
            return nil
        }
    }

    /// Turns a Yams error into a positioned error.
    private func reportSyntaxError(_ failure: any Error, in yaml: String) {
        guard let yamlError = failure as? YamlError else {
            error("the file could not be read as YAML: \(failure).", line: 1, column: 1)
            return
        }
        switch yamlError {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var message = "the YAML does not parse: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            error(message + "; check the indentation, quoting and brackets here.",
                          yamlLine: mark.line, column: mark.column)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            error("the key \(keys) appears more than once in one mapping; keep only one of them.",
                          yamlLine: context.mark.line, column: context.mark.column)
        case let .reader(problem, offset, _, _):
            let (line, column) = Self.position(ofUTF8Offset: offset ?? 0, in: yaml)
            error("the file is not readable text: \(problem); save it as UTF-8.", line: line, column: column)
        default:
            error("the YAML does not parse: \(yamlError).", line: 1, column: 1)
        }
    }

    /// The 1-based line and column of a UTF-8 byte offset.
    static func position(ofUTF8Offset offset: Int, in text: String) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for byte in text.utf8.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
