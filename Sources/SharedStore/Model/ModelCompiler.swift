import Basics
import Foundation

/// Validates a `ModelDescription` and computes its storage: slots, inverses, join tables.
struct ModelCompiler {
    let description: ModelDescription
    let entityIndex: [String: Int]

    private static let reservedColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

    func compile() throws(ModelError) -> [EntityInfo] {
        let hierarchy = try Hierarchy(description, entityIndex: entityIndex)
        let numbers = hierarchy.numbers
        var slotsPerEntity: [[Slot]] = []
        for entity in description.entities {
            slotsPerEntity.append(try slots(of: entity))
        }
        try checkColumns(hierarchy)
        var result: [EntityInfo] = []
        for (i, entity) in description.entities.enumerated() {
            let slots = slotsPerEntity[i]
            var relationships: [RelationshipInfo] = []
            for relationship in entity.relationships {
                // An inherited relationship is stored as its parent's: the same join table.
                let declaring = hierarchy.declaring(relationship.name, of: i)
                relationships.append(try compile(relationship, of: description.entities[declaring], numbers: numbers,
                                                 slotsPerEntity: slotsPerEntity, slotsOf: i))
            }
            let root = hierarchy.root[i]
            let subtree = hierarchy.subtree(of: i)
            let tableEntities = Int64(hierarchy.subtree(of: root).count)
            let companions = slots.indices.compactMap { slot -> Companion? in
                guard case .toOne(let destination) = slots[slot].kind, hierarchy.hasSubentities(destination) else { return nil }
                return Companion(slot: slot, column: "Z\(numbers[destination])_\(slots[slot].name.uppercased())",
                                 destinationTable: "Z" + description.entities[hierarchy.root[destination]].name.uppercased())
            }
            result.append(EntityInfo(
                index: i,
                entityNumber: numbers[i],
                name: entity.name,
                tableName: "Z" + description.entities[root].name.uppercased(),
                attributes: entity.attributes,
                slots: slots,
                slotIndex: Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($1.name, $0) }),
                relationships: relationships,
                relationshipIndex: Dictionary(uniqueKeysWithValues: relationships.enumerated().map { ($1.name, $0) }),
                constraints: try constraints(of: i, slots: slots, hierarchy: hierarchy),
                family: EntityFamily(
                    root: root, parent: hierarchy.parent[i], isAbstract: entity.isAbstract,
                    keyEntityNumber: numbers[root],
                    keyFamily: tableEntities > 1 ? numbers[root]...numbers[root] + tableEntities - 1 : nil,
                    kinds: numbers[i]...numbers[i] + Int64(subtree.count - 1),
                    sharesTable: tableEntities > 1,
                    companions: companions,
                    tree: subtree.count > 1 ? TreeColumns(subtree.map { ($0, slotsPerEntity[$0]) }) : nil)
            ))
        }
        return result
    }

    /// Entities of one table cannot hold two properties of one name (Core Data would number the columns;
    /// SharedStore refuses): a sub-entity's own property clashing with another entity's of its family.
    private func checkColumns(_ hierarchy: Hierarchy) throws(ModelError) {
        var owners: [String: [String: Int]] = [:]  // root entity -> column -> declaring entity
        for i in description.entities.indices {
            let table = description.entities[hierarchy.root[i]].name
            let entity = description.entities[i]
            let inherited = Set(hierarchy.parent[i].map { p in
                description.entities[p].attributes.map(\.name) + description.entities[p].relationships.map(\.name) } ?? [])
            for name in (entity.attributes.map(\.name) + entity.relationships.map(\.name)) where !inherited.contains(name) {
                let column = "Z" + name.uppercased()
                if let other = owners[table]?[column], other != i {
                    throw ModelError(entity: description.entities[i].name, property: name,
                                     reason: "\(description.entities[other].name), stored in the same table, has a property of this name "
                                        + "(two entities of one family with one property name are not supported)")
                }
                owners[table, default: [:]][column] = i
            }
        }
    }

    private func slots(of entity: EntityDescription) throws(ModelError) -> [Slot] {
        var slots: [Slot] = []
        var columns: Set<String> = []
        func claim(_ name: String) throws(ModelError) -> String {
            guard PropertySyntax.isIdentifier(name) else {
                throw ModelError(entity: entity.name, property: name, reason: "a property name must be an identifier")
            }
            let column = "Z" + name.uppercased()
            guard !Self.reservedColumns.contains(column) else {
                throw ModelError(entity: entity.name, property: name, reason: "the name is reserved")
            }
            guard columns.insert(column).inserted else {
                throw ModelError(entity: entity.name, property: name, reason: "duplicate property name")
            }
            return column
        }
        for attribute in entity.attributes {
            let column = try claim(attribute.name)
            var initial: Value = attribute.isOptional ? .null : Value.zero(of: attribute.type)
            if let given = attribute.defaultValue {
                guard let converted = given.converted(to: attribute.type) else {
                    throw ModelError(entity: entity.name, property: attribute.name,
                                     reason: "default value `\(given)` is not a \(attribute.type)")
                }
                initial = converted
            }
            slots.append(Slot(name: attribute.name, column: column, kind: .attribute(attribute.type),
                              isOptional: attribute.isOptional, defaultValue: initial))
        }
        for relationship in entity.relationships {
            let column = try claim(relationship.name)
            guard let destination = entityIndex[relationship.destination] else {
                throw ModelError(entity: entity.name, property: relationship.name,
                                 reason: "relationship to missing entity `\(relationship.destination)`")
            }
            if !relationship.isToMany {
                slots.append(Slot(name: relationship.name, column: column, kind: .toOne(destination: destination),
                                  isOptional: relationship.isOptional, defaultValue: .null))
            }
        }
        return slots
    }

    /// The inverse of `relationship` (declared on `entity`), explicit or inferred; `nil` when there is none.
    func inverse(of relationship: RelationshipDescription, on entity: EntityDescription)
        throws(ModelError) -> RelationshipDescription?
    {
        guard let d = entityIndex[relationship.destination] else { return nil }
        let destination = description.entities[d]
        if let name = relationship.inverse {
            guard let inverse = destination.relationships.first(where: { $0.name == name }) else {
                throw ModelError(entity: entity.name, property: relationship.name,
                                 reason: "inverse `\(name)` is not a relationship of \(destination.name)")
            }
            guard inverse.destination == entity.name, inverse.inverse == nil || inverse.inverse == relationship.name
            else {
                throw ModelError(entity: entity.name, property: relationship.name,
                                 reason: "inverse `\(destination.name).\(name)` does not point back to it")
            }
            return inverse
        }
        // Another relationship naming this one as its inverse wins; otherwise infer when unambiguous.
        if let named = destination.relationships.first(where: {
            $0.destination == entity.name && $0.inverse == relationship.name
        }) {
            return named
        }
        let candidates = destination.relationships.filter {
            $0.destination == entity.name && $0.inverse == nil
                && !(destination.name == entity.name && $0.name == relationship.name)
        }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// `entity` is the entity that declares `relationship`; `owner` the one whose info it goes in (a
    /// sub-entity inherits it): a to-one's slot is the owner's.
    private func compile(_ relationship: RelationshipDescription, of entity: EntityDescription, numbers: [Int64],
                         slotsPerEntity: [[Slot]], slotsOf owner: Int) throws(ModelError) -> RelationshipInfo
    {
        let source = entityIndex[entity.name]!
        let destination = entityIndex[relationship.destination]!
        let inverse = try inverse(of: relationship, on: entity)
        if let inverse, let back = try self.inverse(of: inverse, on: description.entities[destination]),
            back.name != relationship.name
        {
            throw ModelError(entity: entity.name, property: relationship.name,
                             reason: "inverse `\(relationship.destination).\(inverse.name)` is ambiguous (it pairs with `\(back.name)`); name the inverse")
        }
        let storage: RelationshipStorage
        if !relationship.isToMany {
            storage = .foreignKey(slot: slotsPerEntity[owner].firstIndex { $0.name == relationship.name }!)
        } else if let inverse, !inverse.isToMany {
            storage = .inverseForeignKey(slot: slotsPerEntity[destination].firstIndex { $0.name == inverse.name }!)
        } else {
            // Many-to-many (or to-many without inverse): one join table per pair, named after the side
            // that sorts first, as Core Data's Z_<n><RELATIONSHIP>.
            let ownerSide = inverse.map { (entity.name, relationship.name) <= (relationship.destination, $0.name) } ?? true
            let tableOwner = ownerSide ? source : destination
            let tableRelationship = ownerSide ? relationship.name : inverse!.name
            let table = "Z_\(numbers[tableOwner])\(tableRelationship.uppercased())"
            let other = ownerSide ? destination : source
            // Each column is named after the relationship that points at its entity, as in Core Data's
            // `Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS)` (Author 1 `books` <-> Book 2 `authors`); the owner's entity name
            // when nothing points back.
            let towardOwner = ownerSide ? inverse?.name : relationship.name
            let ownerColumn = "Z_\(numbers[tableOwner])\((towardOwner ?? description.entities[tableOwner].name).uppercased())"
            var otherColumn = "Z_\(numbers[other])\(tableRelationship.uppercased())"
            if ownerColumn == otherColumn { otherColumn += "_1" }
            let sourceColumn = ownerSide ? ownerColumn : otherColumn
            let destinationColumn = ownerSide ? otherColumn : ownerColumn
            storage = .joinTable(table: table, ownerColumn: sourceColumn, targetColumn: destinationColumn)
        }
        // An ordered to-many keeps each member's order key beside the member's key, as Core Data's `Z_FOK_`
        // columns: `ZNOTE.Z_FOK_FOLDER` for `Folder.notes` (inverse `Note.folder`), `Z_FOK_34ASSETS` in a
        // join table for the side whose members column is `Z_34ASSETS`.
        var orderColumn: String?
        if relationship.isOrdered {
            guard relationship.isToMany else {
                throw ModelError(entity: entity.name, property: relationship.name, reason: "only a to-many relationship can be ordered")
            }
            switch storage {
            case .inverseForeignKey: orderColumn = "Z_FOK_\(inverse!.name.uppercased())"
            case .joinTable(_, _, let target): orderColumn = "Z_FOK_\(target.dropFirst(2))"
            case .foreignKey: break
            }
        }
        return RelationshipInfo(name: relationship.name, destination: destination, isToMany: relationship.isToMany,
                                inverseName: inverse?.name, storage: storage, deleteRule: relationship.deleteRule,
                                orderColumn: orderColumn)
    }
}
