import Basics

/// An error from the store other than a save's (see `SaveError`).
public enum StoreError: Error, Sendable, CustomStringConvertible {
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

    public var description: String {
        switch self {
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
        default: .invalidState("\(error)")
        }
    }
}

extension ErrorKind {
    /// The kind of a store error (a save's, a fetch's, SQLite's), or `nil` when it is none a scenario
    /// can name (`conflict`, `busy`, `read-only`, `expired-token`, `not-found`).
    public init?(_ error: any Error) {
        switch error {
        case let error as SaveError:
            switch error {
            case .conflicts: self = .conflict
            case .readOnly: self = .readOnly
            case .store(let inner): self.init(inner)
            case .sqlite(let inner): self.init(inner)
            }
        case let error as StoreError:
            switch error {
            case .notFound: self = .notFound
            case .deleteDenied, .missingMandatory: self = .validation
            case .readOnly: self = .readOnly
            case .expiredToken: self = .expiredToken
            case .foreignToken: self = .foreignToken
            case .modelMismatch, .migrationRequired, .migrationFailed: self = .storeLoadFailed
            case .sqlite(let inner): self.init(inner)
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
