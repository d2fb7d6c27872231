import Basics

extension Array where Element == Value {
    /// A copy in a new buffer of exactly this size (cheaper than the copy-on-write of the first mutation of
    /// a shared array, and than `init(unsafeUninitializedCapacity:)`, which is not specialized).
    func fresh() -> [Value] {
        var copy: [Value] = []
        copy.reserveCapacity(count)
        for value in self { copy.append(value) }
        return copy
    }
}
