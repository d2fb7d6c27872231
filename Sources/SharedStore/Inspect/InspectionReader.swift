import Basics
import Foundation

/// The reads behind `StoreInspector`, on a private copy of the store: metadata, the model the schema
/// shows (COREDATA-STORE's rules: tables per root entity, `Z_SUPER`, to-one columns with their
/// `<TABLE>_<COLUMN>_INDEX`, join tables `Z_<n><NAME>`), counts, history and problems.
struct InspectionReader {
    let db: SQLiteConnection
    private var tables: [String: [(name: String, type: String)]] = [:]
    private var indexes: Set<String> = []
    /// What could not be read or looks inconsistent, found while reading (added to the problems).
    private(set) var findings: [String] = []

    /// How many rows of each entity to read as samples (0: none).
    let sampleRows: Int

    /// A model that spells the names (the app's, given to `inspect --model`), before the one a GroupSim
    /// store keeps.
    let spelling: ModelDescription?

    init(db: SQLiteConnection, sampleRows: Int = 0, spelling: ModelDescription? = nil) {
        self.db = db
        self.sampleRows = max(0, sampleRows)
        self.spelling = spelling
    }

    private struct Row {
        var number: Int64, name: String, parent: Int64, max: Int64
    }

    mutating func read(path: String, files: StoreInspection.Files) throws -> StoreInspection {
        try loadSchema()
        var inspection = StoreInspection(
            path: path, layout: .unknown, identifier: nil, storeType: nil, frameworkVersion: nil, hashedEntities: [],
            entities: [], history: nil, files: files, problems: [])
        // Core Data makes tables and indexes only; a view (perhaps where a table should be) is never read.
        let views = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name LIMIT 6")
        var viewNames: [String] = []
        while try views.step() { viewNames.append(VisibleText.escaped(views.string(at: 0) ?? "")) }
        if !viewNames.isEmpty {
            findings.append("the store holds \(viewNames.count > 5 ? "views" : viewNames.count == 1 ? "a view" : "views") ("
                + viewNames.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (viewNames.count > 5 ? ", ..." : "")
                + "), which Core Data never makes: inspect reads tables only, and import refuses the store")
        }
        // Each part is read on its own: what one cannot read is a problem, not the end of the report.
        do { try readMetadata(into: &inspection) } catch { findings.append("the metadata (Z_METADATA) could not be read: \(error)") }
        if inspection.layout == .groupsim, try db.tableExists("Z_MODELCACHE") {
            // Someone else's file may hold anything there: its size is read before its content.
            let size = try db.scalarInt("SELECT ifnull(max(length(Z_CONTENT)), 0) FROM Z_MODELCACHE") ?? 0
            if size > Self.largestModelCache {
                findings.append("the model kept in Z_MODELCACHE is \(ByteSize.text(Int64(size))), more than the "
                    + "\(ByteSize.text(Int64(Self.largestModelCache))) a model takes: it is not used")
            }
            let statement = try db.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE WHERE length(Z_CONTENT) <= ?")
            try statement.bind(Int64(Self.largestModelCache), at: 1)
            if try statement.step(), let content = statement.data(at: 0) {
                inspection.storedModel = try? JSONDecoder().decode(ModelDescription.self, from: content)
                if let deep = inspection.storedModel?.entityInheritingTooDeeply {
                    findings.append("the model kept in Z_MODELCACHE has \(deep) inherit through more than "
                        + "\(ModelDescription.maximumInheritanceDepth) parent entities, more than a model may: it is not used")
                    inspection.storedModel = nil
                }
            }
        }
        do {
            inspection.entities = try entities(try primaryKeyRows(), spelling: spelling ?? inspection.storedModel)
        } catch {
            findings.append("the entities (Z_PRIMARYKEY and their tables) could not be read: \(error)")
        }
        do {
            inspection.history = try history(layout: inspection.layout)
        } catch {
            findings.append("the history (ATRANSACTION, ACHANGE) could not be read: \(error)")
        }
        inspection.problems = findings + problems(inspection)
        return inspection
    }

    /// The rows of `rows` the store does not hold: an unknown entity, or not exactly one row of its table
    /// with that key and the entity's `Z_ENT`. One pass over each entity's rows, counting only the keys
    /// asked about: someone else's store need not make `Z_PK` its primary key, and a lookup per row would
    /// then scan the table each time.
    func missing(_ rows: [StoreRow], in inspection: StoreInspection) throws -> [StoreRow] {
        let byName = Dictionary(inspection.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var held: [String: [Int64: Int]] = [:]
        for (name, asked) in Dictionary(grouping: rows, by: \.entity) {
            guard let entity = byName[name], tables[entity.table]?.isEmpty == false else { continue }
            let keys = Set(asked.map(\.primaryKey))
            var counts: [Int64: Int] = [:]
            let statement = try db.prepare("SELECT Z_PK FROM \(Self.quoted(entity.table)) WHERE Z_ENT = ?")
            try statement.bind(Int64(entity.number), at: 1)
            while try statement.step() {
                let key = statement.int64(at: 0)
                if keys.contains(key) { counts[key, default: 0] += 1 }
            }
            held[name] = counts
        }
        return rows.filter { held[$0.entity]?[$0.primaryKey] != 1 }
    }

    /// The most bytes of `Z_MODELCACHE` read: a model of a thousand entities of fifty properties each is
    /// about 2 MiB of JSON.
    static let largestModelCache = 8 << 20

    /// A table name for SQL: quoted, so that any name sqlite_master holds is one identifier.
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    // MARK: Schema

    private mutating func loadSchema() throws {
        let statement = try db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
        var names: [String] = []
        while try statement.step() {
            guard let name = statement.string(at: 1) else { continue }
            if statement.string(at: 0) == "index" { indexes.insert(name) } else { names.append(name) }
        }
        for name in names {
            // Table names come from sqlite_master; quoting keeps any name one identifier.
            let info = try db.prepare("PRAGMA table_info(\(Self.quoted(name)))")
            var columns: [(String, String)] = []
            while try info.step() { columns.append((info.string(at: 1) ?? "", (info.string(at: 2) ?? "").uppercased())) }
            tables[name] = columns
        }
    }

    private mutating func readMetadata(into inspection: inout StoreInspection) throws {
        let statement = try db.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try statement.step() else {
            findings.append("Z_METADATA has no row for version 1: the store has no identifier or model hashes")
            return
        }
        inspection.identifier = statement.string(at: 0)
        guard let plist = statement.data(at: 1) else {
            findings.append("Z_METADATA.Z_PLIST is empty: the store's model hashes are unknown")
            return
        }
        if plist.starts(with: Array("bplist00".utf8)),
           let dictionary = try? PropertyListSerialization.propertyList(from: plist, options: [], format: nil) as? [String: Any] {
            inspection.layout = dictionary[StoreMetadata.layoutKey] == nil ? .coreData : .groupsim
            inspection.storeType = dictionary["NSStoreType"] as? String
            if let number = dictionary["NSPersistenceFrameworkVersion"] as? NSNumber, number.doubleValue.magnitude < 1e15 {
                inspection.frameworkVersion = number.intValue
            }
            if let hashes = dictionary["NSStoreModelVersionHashes"] as? [String: Any], !hashes.isEmpty {
                inspection.hashedEntities = hashes.keys.sorted()
            } else {
                findings.append("the metadata has no NSStoreModelVersionHashes dictionary: no model can be matched with the store")
            }
        } else {
            findings.append("Z_METADATA.Z_PLIST is not a binary property list, as Core Data writes it: "
                + "the store's model hashes are unknown")
        }
    }

    /// The entity rows of `Z_PRIMARYKEY`: all but history's three (16001-16003, named CHANGE, TRANSACTION
    /// and TRANSACTIONSTRING); a row without a number or a name is a problem.
    private mutating func primaryKeyRows() throws -> [Row] {
        let statement = try db.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [Row] = []
        while try statement.step() {
            let name = statement.string(at: 1)
            guard !statement.isNull(at: 0), let name else {
                findings.append("Z_PRIMARYKEY has a row without a number or a name (\(name ?? "no name")): it is left out")
                continue
            }
            let number = statement.int64(at: 0)
            if [16001: "CHANGE", 16002: "TRANSACTION", 16003: "TRANSACTIONSTRING"][number] == name { continue }
            rows.append(Row(number: number, name: name, parent: statement.isNull(at: 2) ? 0 : statement.int64(at: 2),
                            max: statement.int64(at: 3)))
        }
        return rows
    }

    // MARK: Entities

    /// The entities of `rows`, their properties named as `model` (the model a GroupSim store keeps) or
    /// the indexes spell them.
    private mutating func entities(_ rows: [Row], spelling model: ModelDescription?) throws -> [StoreInspection.Entity] {
        let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let (roots, broken) = Self.roots(of: rows, byNumber: byNumber)
        let entityNames = rows.map(\.name)
        var spelledNames = Self.spelledNames(indexes: indexes, entities: entityNames)
        // The model SharedStore keeps also tells where a to-one points when the schema does not (a
        // sub-entity's relationship, in its root's table): by its lowercased name, when only one entity
        // family declares it with one destination.
        var keptDestinations: [String: String?] = [:]
        for entity in model?.entities ?? [] {
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) { spelledNames[name.lowercased()] = name }
            for relationship in entity.relationships where !relationship.isToMany {
                let key = relationship.name.lowercased()
                if let known = keptDestinations[key], known != relationship.destination {
                    keptDestinations[key] = .some(nil)
                } else {
                    keptDestinations[key] = relationship.destination
                }
            }
        }
        let joins = joinTables()
        let uniqueIndexes = Self.uniqueIndexes(indexes, entities: Set(entityNames))
        var counts: [String: [Int64: Int]] = [:]
        var result: [StoreInspection.Entity] = []
        for row in rows {
            let table = "Z" + (roots[row.number] ?? row).name.uppercased()
            let columns = tables[table] ?? []
            if broken.contains(row.number) {
                findings.append("\(row.name)'s Z_SUPER (\(row.parent)) names no entity, or leads back to it: its rows' table is unknown")
            }
            if columns.isEmpty, row.parent == 0 {
                findings.append("\(row.name) has no table \(table)")
            }
            let isRoot = row.parent == 0
            var attributes: [StoreInspection.Attribute] = []
            var relationships: [StoreInspection.Relationship] = []
            if isRoot {
                for (column, type) in columns where !["Z_PK", "Z_ENT", "Z_OPT"].contains(column) && column.hasPrefix("Z") {
                    // `Z<n>_<NAME>`: the entity of a to-one's target, a companion of the column `Z<NAME>`; `Z_FOK_<NAME>`:
                    // the row's place in an ordered to-many whose inverse is the to-one `Z<NAME>`. Neither is a property.
                    if Self.entityColumn(column) != nil || column.hasPrefix("Z_") { continue }
                    let name = spelledNames[String(column.dropFirst()).lowercased()] ?? String(column.dropFirst()).lowercased()
                    if type == "INTEGER", indexes.contains("\(table)_\(column)_INDEX") {
                        let destination = toOneDestination(column, in: columns, byNumber: byNumber, names: entityNames)
                            ?? keptDestinations[name.lowercased()] ?? nil
                        relationships.append(StoreInspection.Relationship(name: name, destination: destination, toMany: false, storage: column))
                    } else {
                        attributes.append(StoreInspection.Attribute(name: name, column: column, type: Self.typeName(type)))
                    }
                }
            }
            relationships += Self.joinTableRelationships(of: row, joins: joins, byNumber: byNumber)
            var entity = StoreInspection.Entity(
                name: row.name, number: row.number, parent: row.parent == 0 ? nil : byNumber[row.parent]?.name,
                table: table, count: try count(table, entity: row.number, columns: columns, counts: &counts), maxPrimaryKey: row.max,
                attributes: attributes, relationships: relationships)
            entity.constraints = Self.constraints(uniqueIndexes[row.name] ?? [], of: row.name, spelled: spelledNames)
            result.append(entity)
        }
        if sampleRows > 0 {
            let rootByTable = Dictionary(result.filter { $0.parent == nil }.map { ($0.table, $0) }, uniquingKeysWith: { a, _ in a })
            for i in result.indices {
                let root = rootByTable[result[i].table] ?? result[i]
                result[i].samples = try samples(of: result[i], columns: root.attributes)
            }
        }
        return result
    }

    /// The first `sampleRows` rows of `entity` by key, their `columns` as text, bounded: SQL cuts strings
    /// and turns data into its size, so a huge value costs nothing here.
    private func samples(of entity: StoreInspection.Entity, columns: [StoreInspection.Attribute]) throws -> [StoreInspection.Entity.Sample] {
        guard let known = tables[entity.table], known.contains(where: { $0.name == "Z_PK" }) else { return [] }
        let expressions = columns.map { attribute -> String in
            let column = Self.quoted(attribute.column)
            switch attribute.type {
            case "binary": return "CASE WHEN \(column) IS NULL THEN NULL WHEN typeof(\(column)) = 'blob' AND length(\(column)) = 16 "
                + "THEN hex(\(column)) ELSE '(' || length(CAST(\(column) AS BLOB)) || ' bytes)' END"
            case "string": return "substr(CAST(\(column) AS TEXT), 1, 81)"
            default: return column
            }
        }
        let kind = known.contains { $0.name == "Z_ENT" } ? " WHERE Z_ENT = ?" : ""
        let statement = try db.prepare("SELECT Z_PK\(expressions.map { ", \($0)" }.joined()) FROM \(Self.quoted(entity.table))\(kind) "
            + "ORDER BY Z_PK LIMIT \(sampleRows)")
        if !kind.isEmpty { try statement.bind([.int(entity.number)]) }
        var result: [StoreInspection.Entity.Sample] = []
        while try statement.step() {
            let values = columns.indices.map { i -> String? in
                let value = statement.value(at: Int32(i + 1))
                switch value {
                case .null: return nil
                case .string(let text) where columns[i].type == "string":
                    return text.count > 80 ? String(text.prefix(80)) + "…" : text
                case .double(let seconds) where columns[i].type == "date" && seconds.isFinite && seconds.magnitude < 1e11:
                    return Date(timeIntervalSinceReferenceDate: seconds).formatted(.iso8601)
                case .string(let text): return text
                case .int(let int): return String(int)
                case .double(let double): return String(double)
                case .bool(let bool): return String(bool)
                case .date(let date): return date.formatted(.iso8601)
                case .uuid(let uuid): return uuid.uuidString
                }
            }
            result.append(.init(primaryKey: statement.int64(at: 0), values: values))
        }
        return result
    }

    /// The uniqueness constraints the unique indexes `Z_<entity>_UNIQUE_<a>_<b>` of `entity` declare, their
    /// attribute names spelled as `spelled` has them.
    private static func constraints(_ indexes: [String], of entity: String, spelled: [String: String]) -> [[String]] {
        let prefix = "Z_\(entity)_UNIQUE_"
        return indexes.sorted().filter { $0.hasPrefix(prefix) && $0.count > prefix.count }.map { index in
            index.dropFirst(prefix.count).split(separator: "_").map { spelled[$0.lowercased()] ?? String($0) }
        }
    }

    /// The unique indexes (`Z_<entity>_UNIQUE_...`) of each of `entities`, found in one pass over the
    /// indexes rather than one per entity.
    private static func uniqueIndexes(_ indexes: Set<String>, entities: Set<String>) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for index in indexes where index.hasPrefix("Z_") {
            var rest = index.dropFirst(2)[...]
            while let marker = rest.range(of: "_UNIQUE_") {
                let entity = String(index[index.index(index.startIndex, offsetBy: 2)..<marker.lowerBound])
                if entities.contains(entity) { result[entity, default: []].append(index) }
                rest = rest[marker.upperBound...]
            }
        }
        return result
    }

    /// Each row's root entity (the end of its `Z_SUPER` chain) and the rows whose chain names no entity or
    /// loops, in time linear in the rows whatever the chains' depth: a walk stops at a row whose root is known.
    private static func roots(of rows: [Row], byNumber: [Int64: Row]) -> (roots: [Int64: Row], broken: Set<Int64>) {
        var roots: [Int64: Row] = [:]
        var broken: Set<Int64> = []
        for row in rows where roots[row.number] == nil && !broken.contains(row.number) {
            var path: [Row] = []
            var onPath: Set<Int64> = []
            var current = row
            var end: (root: Row, broken: Bool)
            while true {
                if broken.contains(current.number) { end = (roots[current.number] ?? current, true); break }
                if let known = roots[current.number] { end = (known, false); break }
                path.append(current)
                onPath.insert(current.number)
                if current.parent == 0 { end = (current, false); break }
                guard let parent = byNumber[current.parent], !onPath.contains(parent.number) else { end = (current, true); break }
                current = parent
            }
            // A broken chain leaves each of its rows with the last row the walk reached as its root.
            for step in path {
                roots[step.number] = end.root
                if end.broken { broken.insert(step.number) }
            }
        }
        return (roots, broken)
    }

    /// Property names as the model spells them, keyed by their lowercased form, where an index name keeps
    /// them (`Z_Car_UNIQUE_numberPlate`, a fetch index `Z_Car_byNumberPlate` does not): Core Data's
    /// columns are upper case (`ZNUMBERPLATE`), so without one a name can only be lowercased. A word
    /// counts only with a lowercase letter in it (not `INDEX` or `UNIQUE`) and when it is no entity's name.
    static func spelledNames(indexes: Set<String>, entities: [String]) -> [String: String] {
        var spelled: [String: String] = [:]
        let entitySet = Set(entities)
        for index in indexes.sorted() {
            for word in index.split(separator: "_").map(String.init)
            where word.first?.isLowercase == true && !entitySet.contains(word) && word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                spelled[word.lowercased()] = spelled[word.lowercased()] ?? word
            }
        }
        return spelled
    }

    /// The rows of `table` whose `Z_ENT` is `entity` (all of them without a `Z_ENT` column): one scan of
    /// each table, whatever number of entities share it, kept in `counts`.
    private func count(_ table: String, entity: Int64, columns: [(name: String, type: String)],
                       counts: inout [String: [Int64: Int]]) throws -> Int {
        guard !columns.isEmpty else { return 0 }
        guard columns.contains(where: { $0.name == "Z_ENT" }) else {
            return Int(try db.scalarInt("SELECT count(*) FROM \(Self.quoted(table))") ?? 0)
        }
        if counts[table] == nil {
            let statement = try db.prepare("SELECT Z_ENT, count(*) FROM \(Self.quoted(table)) WHERE Z_ENT IS NOT NULL GROUP BY Z_ENT")
            var byEntity: [Int64: Int] = [:]
            while try statement.step() { byEntity[statement.int64(at: 0), default: 0] += Int(statement.int64(at: 1)) }
            counts[table] = byEntity
        }
        return counts[table]?[entity] ?? 0
    }

    /// How many rows of a table have each `Z_ENT`, in number order (none without a `Z_ENT` column).
    func rowsByEntity(_ table: String) -> [(Int64, Int)] {
        guard tables[table]?.contains(where: { $0.name == "Z_ENT" }) == true,
              let statement = try? db.prepare("SELECT Z_ENT, count(*) FROM \(Self.quoted(table)) WHERE Z_ENT IS NOT NULL GROUP BY Z_ENT ORDER BY Z_ENT")
        else { return [] }
        var result: [(Int64, Int)] = []
        while (try? statement.step()) == true { result.append((statement.int64(at: 0), Int(statement.int64(at: 1)))) }
        return result
    }

    /// The highest primary key of a table's rows, for the `Z_MAX` check.
    func highestKey(_ table: String) -> Int64? {
        guard tables[table]?.contains(where: { $0.name == "Z_PK" }) == true else { return nil }
        return try? db.scalarInt("SELECT max(Z_PK) FROM \(Self.quoted(table))")
    }

    /// A to-one's destination: the entity its `Z<n>_<NAME>` companion names, else the entity the
    /// relationship is named after; nil when neither tells.
    private func toOneDestination(_ column: String, in columns: [(name: String, type: String)], byNumber: [Int64: Row],
                                  names: [String]) -> String? {
        let bare = String(column.dropFirst())
        for (other, _) in columns {
            if let (number, name) = Self.entityColumn(other), name == bare, let entity = byNumber[number] { return entity.name }
        }
        return names.first { $0.uppercased() == bare }
    }

    /// `Z1_BOOK` -> (1, "BOOK").
    static func entityColumn(_ column: String) -> (Int64, String)? {
        guard column.hasPrefix("Z"), let underscore = column.firstIndex(of: "_") else { return nil }
        let digits = column[column.index(after: column.startIndex)..<underscore]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let number = Int64(digits) else { return nil }
        return (number, String(column[column.index(after: underscore)...]))
    }

    /// `Z_1BOOKS` (a join table) or `Z_2AUTHORS` (a join column) -> (1, "BOOKS").
    static func joinName(_ name: String) -> (Int64, String)? {
        guard name.hasPrefix("Z_") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }

    /// A join table read off its name and columns: `owner`'s to-many `relationship` holds keys of
    /// `destination`, whose side is named `inverse` (Core Data) or after the owner entity (SharedStore).
    private struct JoinTable {
        var table: String, owner: Int64, relationship: String, destination: Int64, inverse: String
        /// Whether the owner's side (its `relationship`) and the destination's (`inverse`) keep an order:
        /// a `Z_FOK_` column named after the column of the keys it orders.
        var ordersRelationship = false, ordersInverse = false
    }

    /// Every join table of the store (`Z_<n><NAME>` with two `Z_<n><NAME>` columns, and the `Z_FOK_` order
    /// keys of an ordered side), read once, under the numbers of its two entities, in name order.
    private func joinTables() -> [Int64: [JoinTable]] {
        var result: [Int64: [JoinTable]] = [:]
        for (table, all) in tables.sorted(by: { $0.key < $1.key }) {
            let orders = Set(all.filter { $0.name.hasPrefix("Z_FOK_") }.map { "Z_" + $0.name.dropFirst("Z_FOK_".count) })
            let columns = all.filter { !$0.name.hasPrefix("Z_FOK_") }
            guard let (owner, relationship) = Self.joinName(table), columns.count == 2, orders.count <= 2,
                  let parsed = Optional(columns.compactMap { Self.joinName($0.name) }), parsed.count == 2 else { continue }
            // The column named after the relationship holds the destination's keys; the other the owner's,
            // named after the inverse (Core Data) or the owner entity (SharedStore).
            let stripped = parsed.map { ($0.0, $0.1.hasSuffix("_1") ? String($0.1.dropLast(2)) : $0.1) }
            guard let target = stripped.firstIndex(where: { $0.1 == relationship }) ?? stripped.indices.last else { continue }
            let join = JoinTable(table: table, owner: owner, relationship: relationship, destination: stripped[target].0,
                                 inverse: stripped[1 - target].1, ordersRelationship: orders.contains(columns[target].name),
                                 ordersInverse: orders.contains(columns[1 - target].name))
            result[owner, default: []].append(join)
            if join.destination != owner { result[join.destination, default: []].append(join) }
        }
        return result
    }

    /// The to-many relationships of `row` that join tables hold: the table's own (`Z_<n><NAME>` with n its
    /// number), and the inverse of another entity's table when that table names it.
    private static func joinTableRelationships(of row: Row, joins: [Int64: [JoinTable]], byNumber: [Int64: Row]) -> [StoreInspection.Relationship] {
        var result: [StoreInspection.Relationship] = []
        for join in joins[row.number] ?? [] {
            if join.owner == row.number {
                result.append(StoreInspection.Relationship(
                    name: join.relationship.lowercased(), destination: byNumber[join.destination]?.name, toMany: true, storage: join.table,
                    isOrdered: join.ordersRelationship))
            }
            if join.destination == row.number, join.owner != join.destination || join.inverse != join.relationship,
               let ownerRow = byNumber[join.owner], join.inverse != ownerRow.name.uppercased() {
                result.append(StoreInspection.Relationship(
                    name: join.inverse.lowercased(), destination: ownerRow.name, toMany: true, storage: join.table,
                    isOrdered: join.ordersInverse))
            }
        }
        return result
    }

    static func typeName(_ declared: String) -> String {
        switch declared {
        case "INTEGER": "int"
        case "FLOAT", "REAL", "DOUBLE": "double"
        case "DECIMAL": "decimal"
        case "TIMESTAMP": "date"
        case "VARCHAR", "TEXT": "string"
        case "BLOB": "binary"
        default: declared.lowercased()
        }
    }
}
