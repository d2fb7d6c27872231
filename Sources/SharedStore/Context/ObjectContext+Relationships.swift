import Basics

extension ObjectContext {
    /// Adds `other` to the relationship `relationship` of `id` (sets it, for a to-one), maintaining the inverse.
    /// - Throws: `StoreError.unknownProperty` for a relationship the entity lacks, `.invalidObjectID` when
    ///   `other` is not of the destination entity, `.notFound` when either row is gone.
    ///
    /// For an ordered to-many (`NSOrderedSet`), `other` goes at the end (Core Data's `add`; a member stays
    /// where it is), or at `index` (clamped to the members' count), moved there when it is a member already
    /// (`insert(_:at:)` after a `remove`). Objects related through their to-one inverse go at the end.
    /// - Throws: `StoreError.invalidState` for an `index` on a relationship that is not an ordered to-many.
    public func relate(_ id: ObjectID, to other: ObjectID, via relationship: String, at index: Int? = nil) throws(StoreError) {
        let info = try entityInfo(of: id)
        let rel = try info.relationship(relationship)
        guard rel.orderColumn != nil else {
            if index != nil { throw .invalidState("\(info.name).\(relationship) is not an ordered to-many: it has no positions") }
            return try change(id, other, relationship, adding: true)
        }
        var order = try relatedObjects(of: id, via: relationship).map(\.primaryKey)
        try change(id, other, relationship, adding: true)
        if let index {
            order.removeAll { $0 == other.primaryKey }
            order.insert(other.primaryKey, at: min(max(index, 0), order.count))
        } else if !order.contains(other.primaryKey) {
            order.append(other.primaryKey)
        }
        try object(for: id).orders[info.relationshipIndex[relationship]!] = order
    }

    /// Removes `other` from the relationship `relationship` of `id` (clears it, for a to-one that holds it).
    public func unrelate(_ id: ObjectID, from other: ObjectID, via relationship: String) throws(StoreError) {
        try change(id, other, relationship, adding: false)
    }

    /// The objects the relationship of `id` holds now (the store's, with this context's pending changes).
    public func relatedObjects(of id: ObjectID, via relationship: String) throws(StoreError) -> [ObjectID] {
        let info = try entityInfo(of: id)
        let rel = try info.relationship(relationship)
        let destination = core.model.entities[rel.destination]
        let object = try fired(id, info)
        switch rel.storage {
        case .foreignKey(let slot):
            guard case .int(let pk) = object.current[slot] else { return [] }
            return [core.objectID(entity(ofKey: pk, kindOf: destination, via: (info, slot, id.primaryKey)), pk)]
        case .inverseForeignKey(let slot):
            let index = info.relationshipIndex[relationship]!
            let order = rel.orderColumn.map { " ORDER BY \($0) IS NULL, \($0), Z_PK" } ?? ""
            var keys = try storedToMany(object, id, info, index) { () throws(StoreError) in
                try primaryKeys("SELECT Z_PK FROM \(destination.tableName) WHERE \(destination.slots[slot].column) = ?\(order)", id.primaryKey)
            }
            var keySet = Set(keys)
            // This context's own changes on top: the destination objects whose key it set, inserted or deleted.
            for other in objects.values where core.model.isKind(other.entity, of: destination) {
                let slot = self.slot(slot, of: destination, in: other)
                guard other.isInserted || other.isDeleted || other.changes[slot] != nil else { continue }
                let otherID = other.id
                let points = other.current[slot] == .int(id.primaryKey)
                if points && !other.isDeleted && keySet.insert(otherID.primaryKey).inserted {
                    keys.append(otherID.primaryKey)
                } else if (!points || other.isDeleted) && keySet.remove(otherID.primaryKey) != nil {
                    keys.removeAll { $0 == otherID.primaryKey }
                }
            }
            return ordered(keys, object, index).map { objectID($0, kindOf: destination) }
        case .joinTable(let table, let owner, let target):
            let index = info.relationshipIndex[relationship]!
            let order = rel.orderColumn.map { " ORDER BY \($0) IS NULL, \($0), \(target)" } ?? ""
            var keys = try storedToMany(object, id, info, index) { () throws(StoreError) in
                try primaryKeys("SELECT \(target) FROM \(table) WHERE \(owner) = ?\(order)", id.primaryKey)
            }
            let removed = Set(object.joinRemoves[index] ?? [])
            keys.removeAll { removed.contains($0) }
            for key in object.joinAdds[index] ?? [] where !keys.contains(key) { keys.append(key) }
            return ordered(keys, object, index).map { objectID($0, kindOf: destination) }
        }
    }

    /// An ordered to-many's members in the order this context gave them: `members` (the store's order, with
    /// this context's additions at the end) rearranged by the object's pending order, those it lacks after.
    private func ordered(_ members: [Int64], _ object: ManagedObject, _ index: Int) -> [Int64] {
        guard let order = object.orders[index] else { return members }
        let present = Set(members)
        var result = order.filter { present.contains($0) }
        let placed = Set(result)
        result += members.filter { !placed.contains($0) }
        return result
    }

    /// The destination keys a fired to-many holds, as read, before this context's pending changes: kept in
    /// the object once fired (until it becomes a fault); otherwise the row cache's, when fresh by the
    /// staleness rules, as Core Data reloads a faulted object's properties "from the store or last
    /// cached state"; otherwise SQL, which is cached (except inside a pinned generation). An unsaved
    /// owner holds none.
    private func storedToMany(_ object: ManagedObject, _ id: ObjectID, _ info: EntityInfo, _ index: Int,
                              query: () throws(StoreError) -> [Int64]) throws(StoreError) -> [Int64] {
        guard !id.isTemporary || parent?.canReach(id) == true else { return [] }
        if let held = object.toMany?[index] { return held }
        let keys: [Int64]
        if let parent {
            // A child's to-many is what its parent's holds now, the parent's unsaved changes included.
            keys = try parent.relatedObjects(of: id, via: info.relationships[index].name).map(\.primaryKey)
        } else if generation.isPinned {
            keys = try query()
        } else if let cached = core.toManySnapshot(info.index, id.primaryKey, index), isFresh(readAt: cached.readAt) {
            keys = cached.keys
        } else {
            keys = try query()
            core.store(ToManySnapshot(keys: keys, readAt: core.clock.now), info.index, id.primaryKey, index)
        }
        object.toMany = (object.toMany ?? [:]).merging([index: keys]) { $1 }
        hasFiredToMany = true
        return keys
    }

    private func primaryKeys(_ sql: String, _ key: Int64) throws(StoreError) -> [Int64] {
        do {
            try ensurePinned()
            let statement = try connection.cached(sql)
            try statement.bind(key, at: 1)
            defer { statement.reset() }
            var keys: [Int64] = []
            while try statement.step() { keys.append(statement.int64(at: 0)) }
            return keys
        } catch {
            throw StoreError.wrap(error)
        }
    }

    private func change(_ id: ObjectID, _ other: ObjectID, _ relationship: String, adding: Bool) throws(StoreError) {
        let info = try entityInfo(of: id)
        let rel = try info.relationship(relationship)
        let destination = core.model.entities[rel.destination]
        guard core.model.index(ofEntity: other.entity).map({ core.model.isKind($0, of: destination) }) == true else {
            throw .invalidObjectID(other, reason: "\(info.name).\(relationship) holds \(destination.name) objects")
        }
        let source = try object(for: id)
        let target = try object(for: other)
        let targetInfo = core.model.entities[target.entity]
        guard !source.isDeleted else { throw .notFound(id) }
        guard !target.isDeleted else { throw .notFound(other) }
        var previousOwner: (id: ObjectID, info: EntityInfo)?
        switch rel.storage {
        case .foreignKey(let slot):
            _ = try fired(id, info)
            if adding, rel.inverseName.flatMap({ destination.relationshipIndex[$0] }).map({ destination.relationships[$0].isToMany }) == true,
               case .int(let old) = source.current[slot], old != other.primaryKey {
                let owner = entity(ofKey: old, kindOf: destination)
                previousOwner = (core.objectID(owner, old), owner)
            }
            if adding, let inverse = rel.inverseName, let back = targetInfo.slotIndex[inverse] {
                try unpairOneToOne(source: source, id: id, relationship: relationship, slot: slot, target: target, other: other,
                                   inverse: inverse, back: back, destination: destination)
            }
            if adding {
                set(source, slot, .int(other.primaryKey))
            } else if source.current[slot] == .int(other.primaryKey) {
                set(source, slot, .null)
            }
            if let inverse = rel.inverseName, let back = core.model.entities[target.entity].slotIndex[inverse] {
                _ = try fired(other, targetInfo)
                if adding { set(target, back, .int(id.primaryKey)) }
                else if target.current[back] == .int(id.primaryKey) { set(target, back, .null) }
            }
        case .inverseForeignKey(let slot):
            _ = try fired(other, targetInfo)
            guard case .toOne(let ownerKind) = destination.slots[slot].kind else { break }
            let slot = self.slot(slot, of: destination, in: target)
            if adding, case .int(let old) = target.current[slot], old != id.primaryKey {
                let owner = entity(ofKey: old, kindOf: core.model.entities[ownerKind])
                previousOwner = (core.objectID(owner, old), owner)
            }
            if adding {
                set(target, slot, .int(id.primaryKey))
            } else if target.current[slot] == .int(id.primaryKey) {
                set(target, slot, .null)
            }
        case .joinTable:
            func record(_ object: ManagedObject, _ index: Int, _ key: Int64) {
                if adding {
                    object.joinRemoves[index]?.removeAll { $0 == key }
                    if object.joinAdds[index]?.contains(key) != true { object.joinAdds[index, default: []].append(key) }
                } else {
                    object.joinAdds[index]?.removeAll { $0 == key }
                    if object.joinRemoves[index]?.contains(key) != true { object.joinRemoves[index, default: []].append(key) }
                }
            }
            record(source, info.relationshipIndex[relationship]!, other.primaryKey)
            // Core Data keeps the inverse in memory at once: the other side's to-many changes too (the save
            // writes the one join row either side names: INSERT OR IGNORE, DELETE).
            if let inverse = rel.inverseName, let inverseIndex = targetInfo.relationshipIndex[inverse],
               case .joinTable = targetInfo.relationships[inverseIndex].storage {
                record(target, inverseIndex, id.primaryKey)
            }
        }
        // Core Data marks both ends of a relationship change as updated, and the object a to-one is taken
        // from (inverse maintenance removes it from that object's to-many): their versions move on save,
        // and history names them.
        var ends = [source, target]
        if let previousOwner, let owner = try? fired(previousOwner.id, previousOwner.info), !owner.isDeleted {
            ends.append(owner)
        }
        for object in ends where !object.isInserted {
            object.touched = true
            markUpdated(object)
        }
    }

    /// Core Data's default delete rule, Nullify, for an object about to be deleted: the objects on the
    /// other side of its relationships lose it, so they change too (their versions move on save and
    /// history names them). Its to-one's target loses it from its inverse; the objects whose to-one
    /// points at it have that key cleared; the objects joined to it in a join table lose it.
    func nullifyRelationships(of object: ManagedObject) throws(StoreError) {
        let info = core.model.entities[object.entity]
        guard !info.relationships.isEmpty, !object.isInserted else { return }
        _ = try fired(object.id, info)
        // `deny` and `no-action` leave the other side as it is.
        for relationship in info.relationships where relationship.inverseName != nil
            && (relationship.deleteRule == .nullify || relationship.deleteRule == .cascade) {
            let destination = core.model.entities[relationship.destination]
            switch relationship.storage {
            case .foreignKey(let slot):
                guard case .int(let key) = object.current[slot] else { continue }
                let otherInfo = entity(ofKey: key, kindOf: destination)
                let other = try fired(core.objectID(otherInfo, key), otherInfo)
                guard !other.isDeleted else { continue }
                // A one-to-one keeps a key on both sides: the other side's, naming this object, is cleared.
                if let inverse = destination.relationships.first(where: { $0.name == relationship.inverseName }),
                   case .foreignKey(let inverseSlot) = inverse.storage {
                    let slot = self.slot(inverseSlot, of: destination, in: other)
                    if other.current[slot] == .int(object.id.primaryKey) {
                        set(other, slot, .null)
                        continue
                    }
                }
                other.touched = true
                markUpdated(other)
            case .inverseForeignKey(let slot):
                let keys = try primaryKeys("SELECT Z_PK FROM \(destination.tableName) WHERE \(destination.slots[slot].column) = ?",
                                           object.id.primaryKey)
                for key in keys {
                    let otherInfo = entity(ofKey: key, kindOf: destination)
                    let other = try fired(core.objectID(otherInfo, key), otherInfo)
                    let slot = self.slot(slot, of: destination, in: other)
                    guard !other.isDeleted, other.current[slot] == .int(object.id.primaryKey) else { continue }
                    set(other, slot, .null)
                }
            case .joinTable(let table, let owner, let target):
                for key in try primaryKeys("SELECT \(target) FROM \(table) WHERE \(owner) = ?", object.id.primaryKey) {
                    let otherInfo = entity(ofKey: key, kindOf: destination)
                    let other = try fired(core.objectID(otherInfo, key), otherInfo)
                    guard !other.isDeleted else { continue }
                    other.touched = true
                    markUpdated(other)
                }
            }
        }
    }

    /// Inverse maintenance of a one-to-one being set (`source.relationship = target`, the inverse a to-one
    /// kept as a key on both sides, as Core Data keeps it): the partner `source` had loses it, and the
    /// partner `target` had loses `target`, so that no two objects name one partner.
    private func unpairOneToOne(source: ManagedObject, id: ObjectID, relationship: String, slot: Int, target: ManagedObject,
                                other: ObjectID, inverse: String, back: Int, destination: EntityInfo) throws(StoreError) {
        if case .int(let old) = source.current[slot], old != other.primaryKey {
            let oldInfo = entity(ofKey: old, kindOf: destination)
            let partner = try fired(core.objectID(oldInfo, old), oldInfo)
            if !partner.isDeleted, let partnerBack = core.model.entities[partner.entity].slotIndex[inverse],
               partner.current[partnerBack] == .int(id.primaryKey) {
                set(partner, partnerBack, .null)
            }
        }
        let targetInfo = core.model.entities[target.entity]
        _ = try fired(other, targetInfo)
        guard case .int(let previous) = target.current[back], previous != id.primaryKey,
              let inverseInfo = targetInfo.relationships.first(where: { $0.name == inverse }) else { return }
        let previousInfo = entity(ofKey: previous, kindOf: core.model.entities[inverseInfo.destination])
        let partner = try fired(core.objectID(previousInfo, previous), previousInfo)
        if !partner.isDeleted, let partnerSlot = core.model.entities[partner.entity].slotIndex[relationship],
           partner.current[partnerSlot] == .int(other.primaryKey) {
            set(partner, partnerSlot, .null)
        }
    }

    /// The ID of row `key` of `destination` or one of its sub-entities: a to-one or a join table holds only
    /// the key, and the object's entity is its row's.
    func objectID(_ key: Int64, kindOf destination: EntityInfo) -> ObjectID {
        core.objectID(entity(ofKey: key, kindOf: destination), key)
    }

    /// The entity of row `key` of `destination`'s kind: `destination` itself when it has no sub-entities;
    /// otherwise the entity of the object registered with that key here or in a parent context (a child
    /// reads its parent's unsaved inserts by their temporary keys), or of a row cached for it, or of its
    /// row's `Z_ENT`, or (for a row deleted since) the companion column of the row `via` names (entity,
    /// to-one slot, key) that points at it; `destination` when none tells.
    func entity(ofKey key: Int64, kindOf destination: EntityInfo, via: (EntityInfo, Int, Int64)? = nil) -> EntityInfo {
        guard destination.family.tree != nil else { return destination }
        let kinds = core.model.entities(numbered: destination.family.kinds)
        var context: ObjectContext? = self
        while let current = context {
            for entity in kinds where current.objects[entity: entity.index, key] != nil { return entity }
            context = current.parent
        }
        guard key > 0 else { return destination }
        if let known = core.rememberedEntity(root: destination.family.root, key), destination.family.kinds.contains(known.entityNumber) {
            return known
        }
        var number = try? primaryKeys("SELECT Z_ENT FROM \(destination.tableName) WHERE Z_PK = ?", key).first
        // A row deleted since: the referring row's `Z<n>_` companion still says whose it was.
        if number == nil, let (source, slot, sourceKey) = via, sourceKey > 0,
           let companion = source.family.companions.first(where: { $0.slot == slot }) {
            number = try? primaryKeys("SELECT \(companion.column) FROM \(source.tableName) WHERE Z_PK = ? AND "
                + "\(source.slots[slot].column) = \(key)", sourceKey).first
        }
        guard let number, destination.family.kinds.contains(number), let entity = core.model.entity(number: number) else {
            return destination
        }
        core.remember(entity, key)
        return entity
    }

    /// The slot of `object` that is `slot` of `declared` (its entity, or a parent of it): a sub-entity's own
    /// attributes come before the to-ones it inherits, so its slots are numbered otherwise.
    func slot(_ slot: Int, of declared: EntityInfo, in object: ManagedObject) -> Int {
        object.entity == declared.index ? slot : core.model.entities[object.entity].slotIndex[declared.slots[slot].name] ?? slot
    }

    private func set(_ object: ManagedObject, _ slot: Int, _ value: Value) {
        store(value, slot: slot, of: object)
        markUpdated(object)
    }

    /// The first of `objects` (inserted or updated) whose required to-one relationship holds nothing: a
    /// save with one fails, as Core Data's `validateForInsert()`/`validateForUpdate()` do
    /// (NSValidationMissingMandatoryPropertyError). A required to-one emptied by a delete's `nullify`, in
    /// this context, counts too.
    func missingMandatory(_ objects: [ManagedObject]) -> (object: ObjectID, relationship: String)? {
        for object in objects where !object.isFault {
            let info = core.model.entities[object.entity]
            guard info.hasToOneSlots else { continue }
            let current = object.current
            for slot in info.attributeCount..<info.slots.count where !info.slots[slot].isOptional && current[slot] == .null {
                return (object.id, info.slots[slot].name)
            }
        }
        return nil
    }

    /// The deleted objects whose `deny` relationships still hold objects not deleted too, with the
    /// relationship and how many: a save with any fails (Core Data's NSValidationRelationshipDeniedDeleteError).
    func deniedDeletes() throws(StoreError) -> [(object: ObjectID, relationship: String, held: Int)] {
        var denied: [(object: ObjectID, relationship: String, held: Int)] = []
        for id in deletedOrder {
            guard let object = objects[id] else { continue }
            for relationship in core.model.entities[object.entity].relationships where relationship.deleteRule == .deny {
                let held = try relatedObjects(of: id, via: relationship.name).filter { objects[$0]?.isDeleted != true }
                if !held.isEmpty { denied.append((id, relationship.name, held.count)) }
            }
        }
        return denied
    }
}
