import Basics

/// A push's payload and the `on-push:` work it fills in, as YAML nodes: the work's `$name` scalars are the
/// payload's fields, `$$` is a literal `$`. Pure functions of the nodes; the scenario pass decides which
/// work each push fills (`ScenarioDecoder+Payload`).
enum PayloadTemplate {
    /// The payload's value nodes by name, from the push step's action (`{ push: { id: m2 } }`): the work
    /// takes each with its position, so a value the work cannot take is reported where the push gives it.
    static func fields(of action: YAMLNode) -> [String: YAMLNode] {
        let pairs = action.pairs?.first { $0.key.scalar == "push" }?.value.pairs ?? []
        return Dictionary(pairs.compactMap { pair in pair.key.scalar.map { ($0, pair.value) } }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `name` may name a payload's field.
    static func isPayloadName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.utf8.count <= 100 && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic
            || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The field a scalar refers to (`$text` -> `text`), nil for any other scalar (`$$5` is a literal `$5`).
    private static func placeholder(_ text: String) -> String? {
        guard text.hasPrefix("$"), !text.hasPrefix("$$") else { return nil }
        let name = String(text.dropFirst())
        return isPayloadName(name) ? name : nil
    }

    /// Every `$name` scalar among `node`'s values (never its keys), with where it is, in file order.
    static func placeholders(in node: YAMLNode) -> [(name: String, node: YAMLNode)] {
        switch node.kind {
        case let .scalar(text, _): placeholder(text).map { [($0, node)] } ?? []
        case let .sequence(items): items.flatMap(placeholders(in:))
        case let .mapping(pairs): pairs.flatMap { placeholders(in: $0.value) }
        }
    }

    /// `node` with each `$name` value replaced by the payload's value node of that name (left as it is when
    /// the payload has none, which `ScenarioDecoder.decodePayloadWork` reports) and `$$` by `$`.
    static func filling(_ node: YAMLNode, with fields: [String: YAMLNode]) -> YAMLNode {
        var filled = node
        switch node.kind {
        case let .scalar(text, quoted):
            if let name = placeholder(text) {
                return fields[name] ?? node
            } else if text.hasPrefix("$$") {
                filled.kind = .scalar(String(text.dropFirst()), quoted: quoted)
            }
        case let .sequence(items):
            filled.kind = .sequence(items.map { filling($0, with: fields) })
        case let .mapping(pairs):
            filled.kind = .mapping(pairs.map { YAMLNode.Pair(key: $0.key, value: filling($0.value, with: fields)) })
        }
        return filled
    }
}

extension NodeDecoder {
    /// `push: { id: m2, text: Hello }`: named scalars.
    func payload(_ node: YAMLNode) -> PushPayload? {
        guard let pairs = node.pairs else {
            self.error("push takes a payload, its named values, like push: { id: m2, text: Hello }, or true for none; "
                + "found \(node.shortDescription).", at: node)
            return nil
        }
        guard !pairs.isEmpty else {
            self.error("push: {} gives an empty payload; write push: true for a push without one.", at: node)
            return nil
        }
        var fields: [PushPayload.Field] = []
        for pair in pairs {
            guard let name = pair.key.scalar, PayloadTemplate.isPayloadName(name) else {
                self.error("a payload's names are letters, digits, '-' and '_', starting with a letter, as $name refers "
                    + "to them; found \(pair.key.shortDescription).", at: pair.key)
                continue
            }
            guard case let .scalar(text, quoted) = pair.value.kind else {
                self.error("the payload's \(name) is one value (a name, a number, a string), as on-push takes it in "
                    + "place of $\(name); found \(pair.value.shortDescription).", at: pair.value)
                continue
            }
            fields.append(PushPayload.Field(name: name, text: text, quoted: quoted))
        }
        return fields.count == pairs.count ? PushPayload(fields: fields) : nil
    }
}
