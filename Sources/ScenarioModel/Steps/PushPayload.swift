/// What one push carries (`push: { id: m2, text: Hello }`): named scalars that the extension's `on-push:`
/// work takes where it writes `$name`, as a notification service extension reads its values from the
/// notification's `userInfo`.
///
/// Each field keeps its text as written and whether it was quoted, so the work decodes it as it would
/// the same text written in its place (`3` an integer for an integer attribute, `"3"` a string).
public struct PushPayload: Sendable, Hashable, Codable {
    /// One named value of the payload.
    public struct Field: Sendable, Hashable, Codable {
        /// Its name, as `$name` refers to it.
        public var name: String
        /// Its text, as the file wrote it.
        public var text: String
        /// Whether the file quoted it (a quoted scalar is always a string).
        public var quoted: Bool

        /// Creates a field.
        public init(name: String, text: String, quoted: Bool) {
            self.name = name
            self.text = text
            self.quoted = quoted
        }
    }

    /// The fields, in file order.
    public var fields: [Field]

    /// Creates a payload.
    public init(fields: [Field]) {
        self.fields = fields
    }

    /// A key that orders payloads the same way in every run.
    var sortKey: String { fields.map { "\($0.name)\u{0}\($0.text)" }.joined(separator: "\u{0}") }

    /// The field named `name`.
    public subscript(name: String) -> Field? { fields.first { $0.name == name } }
}
