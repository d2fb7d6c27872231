/// Names numbered in the order first added. While there are few, a name is found by comparing it with
/// each (a few short names are compared faster than one is hashed); past `scanned`, through a table.
/// What a trace names per event (processes, stores, writers) is nearly always a few.
struct NameTable {
    /// By number.
    private(set) var names: [String] = []
    private var numbers: [String: Int]?

    /// Up to how many names `number(of:)` compares rather than keep a table.
    private static let scanned = 8

    /// The number of `name`, nil for one never added.
    func number(of name: String) -> Int? {
        if let numbers { return numbers[name] }
        return names.firstIndex(of: name)
    }

    /// The number of `name`, numbering it if new.
    @discardableResult
    mutating func add(_ name: String) -> Int {
        if let known = number(of: name) { return known }
        names.append(name)
        if numbers != nil {
            numbers![name] = names.count - 1
        } else if names.count > Self.scanned {
            numbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, $0.offset) })
        }
        return names.count - 1
    }

    var count: Int { names.count }
}
