import Basics

/// An error a step expects (`expect-error:`); when it happens it is the step's outcome, not an anomaly.
public enum ExpectedError: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// The save fails on an optimistic-locking conflict.
    case conflict
    /// The operation fails with SQLITE_BUSY after the busy timeout.
    case busy
    /// The save fails because the store is read-only to this process.
    case readOnly = "read-only"
    /// The history fetch finds its token expired.
    case expiredToken = "expired-token"
    /// The history fetch finds its token saved for a store this one replaced.
    case foreignToken = "foreign-token"
    /// The object is not in the store.
    case notFound = "not-found"
    /// The save fails validation: it deletes an object whose `deny` relationship still holds objects
    /// (NSValidationRelationshipDeniedDeleteError).
    case validation
    /// The store file cannot be opened (`open-copy` of a copy that lacks its schema).
    case storeLoadFailed = "store-load-failed"
}

extension AnomalyKind: ScenarioKeyword {}
extension ExpectedError {
    /// The error kind the agent reports when this error happens.
    public var kind: ErrorKind {
        switch self {
        case .conflict: .conflict
        case .busy: .busy
        case .readOnly: .readOnly
        case .expiredToken: .expiredToken
        case .foreignToken: .foreignToken
        case .notFound: .notFound
        case .validation: .validation
        case .storeLoadFailed: .storeLoadFailed
        }
    }
}
