import Foundation
import Yams

extension [YAMLNode.Pair] {
    /// Puts `pair` in place of the pair with its key, or after the others when none has it: an override
    /// (a variant's arguments, a variant's context settings) merged into what the file wrote.
    mutating func replaceOrAppend(_ pair: YAMLNode.Pair) {
        if let index = firstIndex(where: { $0.key.scalar == pair.key.scalar }) { self[index] = pair } else { append(pair) }
    }
}

/// A YAML node with its position: the composed tree that every decoder in this module walks.
///
/// It is Yams's `Node` reduced to what a scenario needs, as a `Sendable` value: scalars keep their
/// text and whether they were quoted (a quoted scalar is always a string), mappings keep their pairs in
/// file order, and every node keeps the 1-based line and column where it starts.
struct YAMLNode: Sendable {
    /// One key and its value, in the order they appear in the file.
    struct Pair: Sendable {
        var key: YAMLNode
        var value: YAMLNode
    }

    /// The shape of a node.
    enum Kind: Sendable {
        case scalar(String, quoted: Bool)
        case mapping([Pair])
        case sequence([YAMLNode])
    }

    var kind: Kind
    var line: Int
    var column: Int

    /// The scalar's text, or nil for a mapping or sequence.
    var scalar: String? {
        if case let .scalar(text, _) = kind { return text }
        return nil
    }

    /// Whether the scalar was written in quotes or as a block (`|`, `>`): such a scalar is always a string.
    var isQuoted: Bool {
        if case let .scalar(_, quoted) = kind { return quoted }
        return false
    }

    /// The mapping's pairs, or nil for a scalar or sequence.
    var pairs: [Pair]? {
        if case let .mapping(pairs) = kind { return pairs }
        return nil
    }

    /// The sequence's items, or nil for a scalar or mapping.
    var items: [YAMLNode]? {
        if case let .sequence(items) = kind { return items }
        return nil
    }

    /// Whether this is YAML's null: an empty plain scalar, `~` or `null`.
    var isNull: Bool {
        guard case let .scalar(text, quoted) = kind, !quoted else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// A short description of the node for messages: the scalar's text in quotes, or "a mapping" / "a list".
    var shortDescription: String {
        switch kind {
        case let .scalar(text, _):
            if isNull { return "nothing" }
            let oneLine = text.replacingOccurrences(of: "\n", with: " ")
            return "'\(oneLine.count > 40 ? String(oneLine.prefix(40)) + "..." : oneLine)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    /// The value for `key` in a mapping, or nil.
    subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.scalar == key }?.value
    }
}

extension YAMLNode {
    /// Converts a composed Yams node, keeping every position.
    init(_ node: Node) {
        let mark = node.mark
        let line = mark?.line ?? 1
        let column = mark?.column ?? 1
        switch node {
        case let .scalar(scalar):
            let quoted = scalar.style != .plain && scalar.style != .any
            self.init(kind: .scalar(scalar.string, quoted: quoted), line: line, column: column)
        case let .mapping(mapping):
            let pairs = mapping.map { Pair(key: YAMLNode($0.key), value: YAMLNode($0.value)) }
            self.init(kind: .mapping(pairs), line: line, column: column)
        case let .sequence(sequence):
            self.init(kind: .sequence(sequence.map { YAMLNode($0) }), line: line, column: column)
        case let .alias(alias):
            self.init(kind: .scalar("*\(alias.anchor)", quoted: false), line: line, column: column)
        }
    }
}
