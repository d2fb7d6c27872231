import Basics

extension AttributeType {
    /// The SQLite column type Core Data uses for it.
    var sqlType: String {
        switch self {
        case .string: "VARCHAR"
        case .int, .bool: "INTEGER"
        case .double: "FLOAT"
        case .date: "TIMESTAMP"
        case .uuid: "BLOB"
        }
    }
}
