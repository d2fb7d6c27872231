import Basics

/// An error from the store other than a save's (see `SaveError`).
///
/// A struct around a kind the store keeps to itself, as GRDB's `DatabaseError` and ArgumentParser's
/// errors are: a new kind of failure adds a `Code`, and breaks no code that branches on `code`.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What failed. More codes may come: a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ name: String) { description = name }

        public static let unknownEntity = Code("unknown-entity")
        public static let abstractEntity = Code("abstract-entity")
        public static let unknownProperty = Code("unknown-property")
        public static let typeMismatch = Code("type-mismatch")
        public static let modelMismatch = Code("model-mismatch")
        public static let migrationRequired = Code("migration-required")
        public static let migrationFailed = Code("migration-failed")
        public static let notFound = Code("not-found")
        public static let deleteDenied = Code("delete-denied")
        public static let missingMandatory = Code("missing-mandatory")
        public static let invalidObjectID = Code("invalid-object-id")
        public static let readOnly = Code("read-only")
        public static let expiredToken = Code("expired-token")
        public static let foreignToken = Code("foreign-token")
        public static let invalidPredicate = Code("invalid-predicate")
        public static let invalidState = Code("invalid-state")
        public static let file = Code("file")
        public static let sqlite = Code("sqlite")
        /// Another error, thrown inside the store (a save's, a file system's): kept as it was (`underlying`).
        public static let other = Code("other")
    }

    /// The failures the store tells apart, with what each carries (the store's own code switches over them).
    enum Kind: Sendable {
        /// The model has no entity with this name.
        case unknownEntity(String)
        /// The entity is abstract: objects are made of its sub-entities only.
        case abstractEntity(String)
        /// The entity has no attribute or relationship with this name.
        case unknownProperty(entity: String, property: String)
        /// A value does not fit the attribute's type.
        case typeMismatch(entity: String, property: String, value: Value, expected: AttributeType)
        /// The store file was made with a model this process does not have (a newer one, or another app's):
        /// Core Data's 134100 "the model used to open the store is incompatible with the one used to create it".
        case modelMismatch(path: String, storeHash: String, modelHash: String)
        /// The store was made with a previous version of the model and this process does not migrate
        /// (`migratesAutomatically` off, or read-only): Core Data's 134100 as well.
        case migrationRequired(path: String, storeHash: String, modelHash: String)
        /// A lightweight migration cannot infer the mapping (Core Data's 134140); the store is unchanged.
        case migrationFailed(reason: String)
        /// The object's row is gone (Core Data's 133000 "object inaccessible", or `existingObject` not finding it).
        case notFound(ObjectID)
        /// A save deletes an object whose `deny` relationship still holds `held` objects not deleted with it
        /// (Core Data's NSValidationRelationshipDeniedDeleteError, 1600); nothing was written.
        case deleteDenied(ObjectID, relationship: String, held: Int)
        /// A save inserts or updates an object whose required to-one relationship holds nothing (Core Data's
        /// NSValidationMissingMandatoryPropertyError, 1570); nothing was written.
        case missingMandatory(ObjectID, relationship: String)
        /// The ID belongs to another store, or is temporary where a saved object is needed.
        case invalidObjectID(ObjectID, reason: String)
        /// The store cannot be written by this process (opened read-only, or the history-tracking trap).
        case readOnly(reason: String)
        /// History was fetched after a token whose following transactions were purged (Core Data's 134301).
        case expiredToken(token: Int64, purgedThrough: Int64)
        /// The consumer's saved token belongs to another store: this one was replaced or restored since, and
        /// has a new identifier (Core Data rejects such a token, error 134501 in the reports of bug 24).
        case foreignToken(consumer: String, savedFor: String)
        /// A predicate or sort key that cannot be parsed or does not fit the entity.
        case invalidPredicate(FetchPredicateError)
        /// The operation needs a state the store is not in (e.g. `endWrite` without `beginWrite`).
        case invalidState(String)
        /// A file operation failed (copy, remove).
        case file(path: String, reason: String)
        /// SQLite failed.
        case sqlite(SQLiteError)
        /// Another error thrown inside the store, kept as it was.
        case other(any Error)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The object the failure is about: one not found, one a save could not delete or validate, or an
    /// ID that does not fit.
    public var objectID: ObjectID? {
        switch kind {
        case .notFound(let id), .deleteDenied(let id, _, _), .missingMandatory(let id, _), .invalidObjectID(let id, _): id
        default: nil
        }
    }

    /// SQLite's own error underneath, if the failure is SQLite's.
    public var sqliteError: SQLiteError? {
        if case .sqlite(let error) = kind { error } else { nil }
    }

    /// The predicate's or sort key's own error, for a failure of code `invalidPredicate`: where in the text.
    public var predicateError: FetchPredicateError? {
        if case .invalidPredicate(let error) = kind { error } else { nil }
    }

    /// Why, in words, for the failures that say: a file operation (`file`, without its path), a migration
    /// (`migrationFailed`, Core Data's 134140), a read-only store, an ID that does not fit.
    public var reason: String? {
        switch kind {
        case .file(_, let reason), .migrationFailed(let reason), .readOnly(let reason), .invalidObjectID(_, let reason): reason
        default: nil
        }
    }

    /// What failed.
    public var code: Code {
        switch kind {
        case .unknownEntity: .unknownEntity
        case .abstractEntity: .abstractEntity
        case .unknownProperty: .unknownProperty
        case .typeMismatch: .typeMismatch
        case .modelMismatch: .modelMismatch
        case .migrationRequired: .migrationRequired
        case .migrationFailed: .migrationFailed
        case .notFound: .notFound
        case .deleteDenied: .deleteDenied
        case .missingMandatory: .missingMandatory
        case .invalidObjectID: .invalidObjectID
        case .readOnly: .readOnly
        case .expiredToken: .expiredToken
        case .foreignToken: .foreignToken
        case .invalidPredicate: .invalidPredicate
        case .invalidState: .invalidState
        case .file: .file
        case .sqlite: .sqlite
        case .other: .other
        }
    }

    /// The error thrown inside the store that this one carries (code `other`): a save's failure inside a
    /// transaction, a file system's. It was kept as text, and a scenario's expected error never matched it.
    public var underlying: (any Error)? {
        if case .other(let error) = kind { error } else { nil }
    }

    /// The model has no entity with this name.
    public static func unknownEntity(_ value: String) -> StoreError {
        StoreError(.unknownEntity(value))
    }
    /// The entity is abstract: objects are made of its sub-entities only.
    public static func abstractEntity(_ value: String) -> StoreError {
        StoreError(.abstractEntity(value))
    }
    /// The entity has no attribute or relationship with this name.
    public static func unknownProperty(entity: String, property: String) -> StoreError {
        StoreError(.unknownProperty(entity: entity, property: property))
    }
    /// A value does not fit the attribute's type.
    public static func typeMismatch(entity: String, property: String, value: Value, expected: AttributeType) -> StoreError {
        StoreError(.typeMismatch(entity: entity, property: property, value: value, expected: expected))
    }
    /// The store file was made with a model this process does not have (a newer one, or another app's):
    /// Core Data's 134100 "the model used to open the store is incompatible with the one used to create it".
    public static func modelMismatch(path: String, storeHash: String, modelHash: String) -> StoreError {
        StoreError(.modelMismatch(path: path, storeHash: storeHash, modelHash: modelHash))
    }
    /// The store was made with a previous version of the model and this process does not migrate
    /// (`migratesAutomatically` off, or read-only): Core Data's 134100 as well.
    public static func migrationRequired(path: String, storeHash: String, modelHash: String) -> StoreError {
        StoreError(.migrationRequired(path: path, storeHash: storeHash, modelHash: modelHash))
    }
    /// A lightweight migration cannot infer the mapping (Core Data's 134140); the store is unchanged.
    public static func migrationFailed(reason: String) -> StoreError {
        StoreError(.migrationFailed(reason: reason))
    }
    /// The object's row is gone (Core Data's 133000 "object inaccessible", or `existingObject` not finding it).
    public static func notFound(_ value: ObjectID) -> StoreError {
        StoreError(.notFound(value))
    }
    /// A save deletes an object whose `deny` relationship still holds `held` objects not deleted with it
    /// (Core Data's NSValidationRelationshipDeniedDeleteError, 1600); nothing was written.
    public static func deleteDenied(_ value0: ObjectID, relationship: String, held: Int) -> StoreError {
        StoreError(.deleteDenied(value0, relationship: relationship, held: held))
    }
    /// A save inserts or updates an object whose required to-one relationship holds nothing (Core Data's
    /// NSValidationMissingMandatoryPropertyError, 1570); nothing was written.
    public static func missingMandatory(_ value0: ObjectID, relationship: String) -> StoreError {
        StoreError(.missingMandatory(value0, relationship: relationship))
    }
    /// The ID belongs to another store, or is temporary where a saved object is needed.
    public static func invalidObjectID(_ value0: ObjectID, reason: String) -> StoreError {
        StoreError(.invalidObjectID(value0, reason: reason))
    }
    /// The store cannot be written by this process (opened read-only, or the history-tracking trap).
    public static func readOnly(reason: String) -> StoreError {
        StoreError(.readOnly(reason: reason))
    }
    /// History was fetched after a token whose following transactions were purged (Core Data's 134301).
    public static func expiredToken(token: Int64, purgedThrough: Int64) -> StoreError {
        StoreError(.expiredToken(token: token, purgedThrough: purgedThrough))
    }
    /// The consumer's saved token belongs to another store: this one was replaced or restored since, and
    /// has a new identifier (Core Data rejects such a token, error 134501 in the reports of bug 24).
    public static func foreignToken(consumer: String, savedFor: String) -> StoreError {
        StoreError(.foreignToken(consumer: consumer, savedFor: savedFor))
    }
    /// A predicate or sort key that cannot be parsed or does not fit the entity.
    public static func invalidPredicate(_ value: FetchPredicateError) -> StoreError {
        StoreError(.invalidPredicate(value))
    }
    /// The operation needs a state the store is not in (e.g. `endWrite` without `beginWrite`).
    public static func invalidState(_ value: String) -> StoreError {
        StoreError(.invalidState(value))
    }
    /// A file operation failed (copy, remove).
    public static func file(path: String, reason: String) -> StoreError {
        StoreError(.file(path: path, reason: reason))
    }
    /// SQLite failed.
    public static func sqlite(_ value: SQLiteError) -> StoreError {
        StoreError(.sqlite(value))
    }

    public var description: String {
        switch kind {
        case .unknownEntity(let name): "unknown entity `\(name)`"
        case .abstractEntity(let name): "`\(name)` is an abstract entity: insert one of its sub-entities"
        case .unknownProperty(let entity, let property): "entity \(entity) has no property `\(property)`"
        case .typeMismatch(let entity, let property, let value, let expected):
            "\(entity).\(property): `\(value)` is not a \(expected)"
        case .modelMismatch(let path, let storeHash, let modelHash):
            "the store at \(path) was made with a model this process does not have (store hash \(storeHash), model hash \(modelHash))"
        case .migrationRequired(let path, let storeHash, let modelHash):
            "the store at \(path) was made with a previous model (store hash \(storeHash)) and this process does not migrate it to its own (model hash \(modelHash))"
        case .migrationFailed(let reason): "the store cannot be migrated: \(reason)"
        case .notFound(let id): "object \(id) is inaccessible: its row no longer exists"
        case .deleteDenied(let id, let relationship, let held):
            "\(id) cannot be deleted: its relationship `\(relationship)` (delete rule deny) still holds \(held) object\(held == 1 ? "" : "s")"
        case .missingMandatory(let id, let relationship):
            "\(id) cannot be saved: its relationship `\(relationship)` is required and holds nothing (NSValidationMissingMandatoryPropertyError, 1570)"
        case .invalidObjectID(let id, let reason): "invalid object ID \(id): \(reason)"
        case .readOnly(let reason): "the store is read-only to this process: \(reason)"
        case .expiredToken(let token, let purged):
            "history token \(token) has expired: transactions through \(purged) were purged"
        case .foreignToken(let consumer, _):
            // Without the identifiers: they are random, and a deterministic run's trace must not be.
            "the history token of \(consumer) was saved for a store this one replaced (it has another identifier)"
        case .invalidPredicate(let error): "\(error)"
        case .invalidState(let message): message
        case .file(let path, let reason): "\(path): \(reason)"
        case .sqlite(let error): "\(error)"
        case .other(let error): "\(error)"
        }
    }
}

extension StoreError {
    /// Any error thrown inside the store, as a `StoreError`.
    static func wrap(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError: error
        case let error as SQLiteError: .sqlite(error)
        case let error as FetchPredicateError: .invalidPredicate(error)
        default: StoreError(.other(error))
        }
    }
}

extension ErrorKind {
    /// The kind of a store error (a save's, a fetch's, SQLite's), or `nil` when it is none a scenario
    /// can name (`conflict`, `busy`, `read-only`, `expired-token`, `not-found`).
    public init?(_ error: any Error) {
        switch error {
        case let error as SaveError:
            switch error.kind {
            case .conflicts: self = .conflict
            case .readOnly: self = .readOnly
            case .store(let inner): self.init(inner)
            case .sqlite(let inner): self.init(inner)
            }
        case let error as StoreError:
            switch error.kind {
            case .notFound: self = .notFound
            case .deleteDenied, .missingMandatory: self = .validation
            case .readOnly: self = .readOnly
            case .expiredToken: self = .expiredToken
            case .foreignToken: self = .foreignToken
            case .modelMismatch, .migrationRequired, .migrationFailed: self = .storeLoadFailed
            case .sqlite(let inner): self.init(inner)
            case .other(let inner): self.init(inner)
            default: return nil
            }
        case let error as SQLiteError:
            switch error.code {
            case .busy, .locked: self = .busy
            case .readonly: self = .readOnly
            // A uniqueness constraint's index refused the write: Core Data's NSConstraintConflict.
            case .constraint: self = .conflict
            default: return nil
            }
        default: return nil
        }
    }
}
