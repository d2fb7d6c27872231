import Basics
/// A context a process declares under `contexts:` (steps reach it with `context: name`).
///
/// An undeclared name a step uses is a background context on the coordinator with no automatic merge.
public struct ContextDeclaration: Sendable, Hashable, Codable {
    /// What a declared context reads through and saves into.
    public enum Parent: Sendable, Hashable, Codable {
        /// The process's coordinator: a background context (`newBackgroundContext()`).
        case store
        /// The process's view context: a child of it.
        case view
        /// Another declared context of the process: a child of it.
        case context(String)
    }

    /// The name steps give in `context:`.
    public var name: String
    /// `parent:` (`store`, `view` or a declared context; `store` when left out).
    public var parent: Parent
    /// `automatically-merges:`: Core Data's `automaticallyMergesChangesFromParent` for this context: it
    /// takes its parent's saves (a child), or the saves of the process's other contexts on the
    /// coordinator (a background context).
    public var automaticallyMerges: Bool
    /// `author:`: the context's `transactionAuthor`; the process's `author` when nil.
    public var author: TransactionAuthor?
    /// `merge-policy:`: the context's `mergePolicy`; the process's when nil.
    public var mergePolicy: MergePolicy?
    /// `staleness:`: the context's `stalenessInterval`; the process's when nil.
    public var staleness: Staleness?

    /// Creates a declaration.
    public init(name: String, parent: Parent = .store, automaticallyMerges: Bool = false, author: TransactionAuthor? = nil,
                mergePolicy: MergePolicy? = nil, staleness: Staleness? = nil) {
        self.name = name
        self.parent = parent
        self.automaticallyMerges = automaticallyMerges
        self.author = author
        self.mergePolicy = mergePolicy
        self.staleness = staleness
    }
}
