import Basics

/// Where an entity stands in its inheritance tree, as stored: the table it shares with its family, the
/// `Z_ENT` numbers of its kind, the keys it takes, the companion columns of its to-ones.
struct EntityFamily: Sendable {
    /// The index of the root entity (itself, for a root): whose table holds the rows.
    let root: Int
    /// The index of the parent entity, for a sub-entity.
    let parent: Int?
    /// Whether objects of this very entity cannot be made.
    let isAbstract: Bool
    /// The `Z_PRIMARYKEY` row keys are taken from: the root's, as Core Data keys one table.
    let keyEntityNumber: Int64
    /// The numbers of every entity of the table, when it holds several (keys come after their highest `Z_MAX`).
    let keyFamily: ClosedRange<Int64>?
    /// The `Z_ENT` numbers of this entity and its sub-entities (contiguous: sub-entities are numbered
    /// right after their parent).
    let kinds: ClosedRange<Int64>
    /// Whether other entities' rows live in the same table (its reads then filter on `Z_ENT`).
    let sharesTable: Bool
    /// The `Z<n>_<NAME>` columns of the to-ones whose destination has sub-entities.
    let companions: [Companion]
    /// For an entity with sub-entities: the columns a fetch reads, and where each entity's slots are.
    let tree: TreeColumns?

    /// The condition that keeps this entity's kinds in its table: `nil` when the table holds no other.
    var entityFilter: String? {
        guard sharesTable else { return nil }
        return kinds.count == 1 ? "Z_ENT = \(kinds.lowerBound)" : "Z_ENT BETWEEN \(kinds.lowerBound) AND \(kinds.upperBound)"
    }

    /// The condition that keeps this very entity's rows (not its sub-entities'): `nil` when the table holds
    /// no other entity.
    var ownRowsFilter: String? { sharesTable ? "Z_ENT = \(kinds.lowerBound)" : nil }
}

/// A to-one whose destination has sub-entities also stores the target's `Z_ENT`, in `Z<n>_<NAME>` (n the
/// destination's number), as Core Data does.
struct Companion: Sendable {
    /// The to-one's slot.
    let slot: Int
    /// `Z1_BOOK`.
    let column: String
    /// The table the target's row is in.
    let destinationTable: String

    /// Sets the companion of one row of `entity` (bound: its `Z_PK`) to its target's `Z_ENT`, or NULL when
    /// the to-one holds no target. The subquery's table is aliased: it may be the updated table itself (a
    /// to-one within a family).
    func updateSQL(in entity: EntityInfo) -> String {
        "UPDATE \(entity.tableName) SET \(column) = (SELECT target.Z_ENT FROM \(destinationTable) target "
            + "WHERE target.Z_PK = \(entity.tableName).\(entity.slots[slot].column)) WHERE Z_PK = ?"
    }
}

/// What a fetch of an entity with sub-entities reads in one query: `Z_PK, Z_OPT, Z_ENT`, then every
/// column of the entity and its sub-entities, and for each of them the statement columns of its slots.
struct TreeColumns: Sendable {
    /// The slot columns after `Z_PK, Z_OPT, Z_ENT`.
    let columns: [String]
    /// Entity index -> statement column of each of its slots.
    let positions: [Int: [Int32]]

    init(_ members: [(index: Int, slots: [Slot])]) {
        var columns: [String] = []
        var placed: [String: Int32] = [:]
        var positions: [Int: [Int32]] = [:]
        for (index, slots) in members {
            positions[index] = slots.map { slot in
                if let known = placed[slot.column] { return known }
                let position = Int32(columns.count + 3)
                columns.append(slot.column)
                placed[slot.column] = position
                return position
            }
        }
        self.columns = columns
        self.positions = positions
    }

    /// `Z_PK, Z_OPT, Z_ENT, <columns>`.
    var selectList: String { (["Z_PK", "Z_OPT", "Z_ENT"] + columns).joined(separator: ", ") }
}

/// The model's inheritance: parents checked, entities numbered as Core Data numbers them (root entities
/// in name order, each followed at once by its sub-entities, depth first, in name order).
struct Hierarchy {
    let parent: [Int?]
    let root: [Int]
    let numbers: [Int64]
    /// Entity indexes in number order.
    private let order: [Int]
    private let children: [[Int]]
    private let description: ModelDescription

    init(_ description: ModelDescription, entityIndex: [String: Int]) throws(ModelError) {
        self.description = description
        let entities = description.entities
        var parent = [Int?](repeating: nil, count: entities.count)
        for (i, entity) in entities.enumerated() {
            guard let name = entity.parent else { continue }
            guard let p = entityIndex[name] else {
                throw ModelError(entity: entity.name, reason: "its parent entity `\(name)` is not in the model")
            }
            parent[i] = p
        }
        var root = [Int](repeating: 0, count: entities.count)
        for i in entities.indices {
            var current = i
            var steps = 0
            while let p = parent[current] {
                steps += 1
                guard steps <= entities.count else {
                    throw ModelError(entity: entities[i].name, reason: "its parent entities lead back to it")
                }
                current = p
            }
            root[i] = current
        }
        for (i, entity) in entities.enumerated() {
            guard let p = parent[i] else { continue }
            let inherited = entities[p]
            guard entity.attributes.starts(with: inherited.attributes), entity.relationships.starts(with: inherited.relationships) else {
                throw ModelError(entity: entity.name, reason: "a sub-entity lists its parent \(inherited.name)'s properties first, "
                    + "unchanged (ModelDescription.inheriting() adds them)")
            }
        }
        var children = [[Int]](repeating: [], count: entities.count)
        for i in entities.indices { if let p = parent[i] { children[p].append(i) } }
        for i in children.indices { children[i].sort { entities[$0].name < entities[$1].name } }
        var order: [Int] = []
        func visit(_ i: Int) {
            order.append(i)
            for child in children[i] { visit(child) }
        }
        for i in entities.indices.filter({ parent[$0] == nil }).sorted(by: { entities[$0].name < entities[$1].name }) { visit(i) }
        var numbers = [Int64](repeating: 0, count: entities.count)
        for (rank, i) in order.enumerated() { numbers[i] = Int64(rank + 1) }
        self.parent = parent
        self.root = root
        self.numbers = numbers
        self.order = order
        self.children = children
    }

    func hasSubentities(_ i: Int) -> Bool { !children[i].isEmpty }

    /// The entity and its sub-entities at any depth, in number order.
    func subtree(of i: Int) -> [Int] {
        let start = Int(numbers[i]) - 1
        var end = start + 1
        while end < order.count, isDescendant(order[end], of: i) { end += 1 }
        return Array(order[start..<end])
    }

    private func isDescendant(_ i: Int, of ancestor: Int) -> Bool {
        var current = parent[i]
        while let c = current {
            if c == ancestor { return true }
            current = parent[c]
        }
        return false
    }

    /// The entity that declares the relationship `name` that entity `i` has: the highest ancestor with it.
    func declaring(_ name: String, of i: Int) -> Int {
        var result = i
        while let p = parent[result], description.entities[p].relationships.contains(where: { $0.name == name }) { result = p }
        return result
    }
}
