/// What a `results` check expects of a fetched-results controller (`NSFetchedResultsController`): the
/// objects its `fetchedObjects` holds, in order, or its sections, and how many times it told its delegate
/// that its content changed (`controllerDidChangeContent(_:)`) since its fetch. Each part is checked only
/// when given.
public struct ResultsExpectation: Sendable, Hashable, Codable {
    /// The objects in order, every section's in turn (`expect: [n2, n1]`).
    public var objects: [String]?
    /// The sections in order, each with its objects (`expect: { Work: [n1], Home: [n2] }`).
    public var sections: [ResultsSection]?
    /// Delegate calls since the controller's fetch (`changes: 1`).
    public var changes: Int?

    /// Creates an expectation.
    public init(objects: [String]? = nil, sections: [ResultsSection]? = nil, changes: Int? = nil) {
        self.objects = objects
        self.sections = sections
        self.changes = changes
    }
}

/// One section of a fetched-results controller: the value of its `sectionNameKeyPath` as text (empty
/// for nil), and its objects in order.
public struct ResultsSection: Sendable, Hashable, Codable {
    /// The section's name.
    public var name: String
    /// Its objects, in order.
    public var objects: [String]

    /// Creates a section.
    public init(name: String, objects: [String]) {
        self.name = name
        self.objects = objects
    }
}
