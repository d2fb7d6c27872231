import Basics

/// Reads one YAML mapping whose keys come from a known set, reporting unknown keys with a suggestion.
///
/// ```swift
/// guard let map = MappingReader(node, "the store", decoder) else { return nil }
/// map.rejectUnknownKeys(["group", "name", "model"], in: "the store")
/// let group = map.required("group", example: "group: group.example.notes")
/// ```
struct MappingReader {
    /// The mapping node.
    let node: YAMLNode
    /// Its pairs, in file order, whose keys are scalars.
    let pairs: [YAMLNode.Pair]
    private let decoder: NodeDecoder

    /// Reads `node` as a mapping, or records "expected <what> as a mapping" and fails.
    init?(_ node: YAMLNode, _ what: String, _ decoder: NodeDecoder) {
        guard let pairs = node.pairs else {
            decoder.error("expected \(what) as a mapping of keys to values, but found \(node.shortDescription).",
                          at: node)
            return nil
        }
        self.node = node
        self.decoder = decoder
        self.pairs = pairs.filter { pair in
            if pair.key.scalar == nil || pair.key.isNull {
                decoder.error("a key in \(what) must be a plain word, not \(pair.key.shortDescription).", at: pair.key)
                return false
            }
            return true
        }
    }

    /// The keys, in file order.
    var keys: [String] { pairs.compactMap(\.key.scalar) }

    /// The value for `key`, or nil when it is absent.
    subscript(key: String) -> YAMLNode? {
        pairs.first { $0.key.scalar == key }?.value
    }

    /// The key node of `key`, or nil when it is absent.
    func keyNode(_ key: String) -> YAMLNode? {
        pairs.first { $0.key.scalar == key }?.key
    }

    /// Records "unknown key" for every key outside `known`, with the nearest known key as a suggestion.
    /// In the argument of the control step `controlWord`, an `only-in:` is shown where it goes instead.
    func rejectUnknownKeys(_ known: [String], in what: String, controlWord: String? = nil) {
        for pair in pairs {
            guard let key = pair.key.scalar, !known.contains(key) else { continue }
            // `- clock: { advance: 3s, only-in: [slow] }`: a control step's variants go beside its word.
            if key == "only-in", let word = controlWord {
                decoder.error("only-in goes beside the step's word, not inside it: - { \(word): ..., only-in: [...] }.", at: pair.key)
                continue
            }
            decoder.error("unknown key '\(key)' in \(what)" + Suggestion.hint(for: key, in: known), at: pair.key)
        }
    }

    /// The value for `key`, or records "<what> needs '<key>'" at the mapping and fails.
    func required(_ key: String, in what: String, example: String) -> YAMLNode? {
        if let value = self[key] { return value }
        decoder.error("\(what) needs '\(key)'; add it, for example \(example).", at: node)
        return nil
    }
}
