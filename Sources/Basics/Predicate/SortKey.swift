/// One key of a fetch's `sort:`: `rank` ascending, `-rank` descending.
public struct SortKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The attribute sorted by.
    public var attribute: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Creates a sort key.
    public init(attribute: String, ascending: Bool = true) {
        self.attribute = attribute
        self.ascending = ascending
    }

    /// `rank` or `-rank`.
    public var description: String { (ascending ? "" : "-") + attribute }
}
