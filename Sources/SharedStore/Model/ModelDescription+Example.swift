import Basics

extension ModelDescription {
    /// The example model of Docs/ScenarioLanguage.md (`Note` with `tags`, `Tag` with `note`), used by tests, the
    /// `testpeer store` child process and the benchmark.
    public static let notesExample = ModelDescription(entities: [
        EntityDescription(
            name: "Note",
            attributes: [
                AttributeDescription(name: "title", type: .string),
                AttributeDescription(name: "body", type: .string, isOptional: true),
                AttributeDescription(name: "pinned", type: .bool, defaultValue: .bool(false)),
                AttributeDescription(name: "rank", type: .int),
                AttributeDescription(name: "score", type: .double),
                AttributeDescription(name: "created", type: .date, isOptional: true),
                AttributeDescription(name: "uid", type: .uuid, isOptional: true),
            ],
            relationships: [RelationshipDescription(name: "tags", destination: "Tag", isToMany: true)]),
        EntityDescription(
            name: "Tag",
            attributes: [AttributeDescription(name: "name", type: .string)],
            relationships: [RelationshipDescription(name: "note", destination: "Note", isToMany: false)]),
    ])
}
