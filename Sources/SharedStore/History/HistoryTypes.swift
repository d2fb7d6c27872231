import Basics
import Foundation

/// Which transactions a history fetch keeps (the rest still advance the token).
public enum HistoryAuthorFilter: Sendable, Hashable {
    /// Every transaction.
    case all
    /// Every transaction whose author is not `own` (the merging context's `transactionAuthor`; with no
    /// author of its own, every transaction).
    case allButOwn
    /// Only transactions by these authors; a transaction with no author is excluded.
    case authors([String])
}

/// One change in a history transaction (Core Data's `NSPersistentHistoryChange`).
public struct HistoryChangeRecord: Sendable, Hashable {
    /// The changed object.
    public let object: ObjectID
    /// Insert, update or delete.
    public let operation: ChangeOperation
    /// The properties an update changed.
    public let updatedProperties: [String]
    /// A deleted object's preserved values (`preservesValueInHistoryOnDeletion`).
    public let tombstone: [String: Value]?
}

/// One history transaction (Core Data's `NSPersistentHistoryTransaction`).
public struct HistoryTransaction: Sendable, Hashable {
    /// Its token: increasing with every transaction, never reused.
    public let token: Int64
    /// The saving context's `transactionAuthor`, if any.
    public let author: String?
    /// The saving context's name (`batch` for batch operations).
    public let contextName: String?
    /// The writing process's bundle identifier (its role).
    public let bundleIdentifier: String?
    /// The writing process's identifier when the history recorded a number (0 otherwise: Core Data and
    /// SharedStore record the process's name).
    public let processIdentifier: Int32
    /// The writing process as recorded (`ZPROCESSIDTS`): its name.
    public let processName: String?
    /// When it was written, on the simulated clock.
    public let timestamp: Date
    /// Its changes.
    public let changes: [HistoryChangeRecord]
}

/// What a history fetch (and merge) found.
public struct HistoryFetchResult: Sendable {
    /// The token fetched after (`nil`: from the beginning).
    public let tokenBefore: Int64?
    /// The last transaction fetched, filtered-out ones included (unchanged when there was none).
    public let tokenAfter: Int64?
    /// The transactions the filter kept (merged, for a merge).
    public let transactions: [HistoryTransaction]
    /// How many transactions the filter left out.
    public let skipped: Int

    /// The kept transactions' changes as object-ID lists, in order.
    public var remoteChanges: RemoteChanges {
        var changes = RemoteChanges()
        for transaction in transactions {
            for change in transaction.changes {
                switch change.operation {
                case .insert: changes.inserted.append(change.object)
                case .update: changes.updated.append(change.object)
                case .delete: changes.deleted.append(change.object)
                }
            }
        }
        return changes
    }
}

/// What `purgeHistory` deletes.
public enum HistoryPurgePolicy: Sendable, Hashable, CustomStringConvertible {
    /// Nothing.
    case none
    /// Transactions strictly before the oldest token among the history consumers (nothing while one of
    /// them has no token).
    case consumedByAll
    /// Transactions strictly before the last one this process consumed or wrote.
    case ownToken
    /// Transactions older than this many seconds on the simulated clock.
    case olderThan(TimeInterval)

    /// Parses `none`, `consumed-by-all`, `own-token`, `older-than:SECONDS`.
    public init?(argument: String) {
        switch argument {
        case "none": self = .none
        case "consumed-by-all": self = .consumedByAll
        case "own-token": self = .ownToken
        default:
            guard argument.hasPrefix("older-than:"), let seconds = TimeInterval(argument.dropFirst(11)) else {
                return nil
            }
            self = .olderThan(seconds)
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .consumedByAll: "consumed-by-all"
        case .ownToken: "own-token"
        case .olderThan(let seconds): "older-than:\(seconds)"
        }
    }
}
