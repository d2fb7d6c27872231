/// A row of the store, by entity index and primary key: what sync keys its per-row bookkeeping by.
struct RowKey: Hashable {
    let entity: Int
    let primaryKey: Int64
}
