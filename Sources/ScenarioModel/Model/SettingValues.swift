import Basics

/// How an `own`-storage process exchanges changes with the group store (`sync`).
public enum SyncMode: Sendable, Hashable, Codable {
    /// No exchange at all.
    case none
    /// Change sets through a transfer directory, arriving after `latency`.
    case transfer(latency: Duration)
}

/// What `purge-history` deletes (`purge`, or the argument of a `purge-history` step).
public enum PurgePolicy: Sendable, Hashable, Codable {
    /// Nothing.
    case none
    /// Transactions before the oldest token among the processes with `refresh: history`.
    case consumedByAll
    /// Transactions before the last one this process consumed or wrote.
    case ownToken
    /// Transactions older than the simulated now minus the duration.
    case olderThan(Duration)
}

extension PurgePolicy: CustomStringConvertible {
    /// As the file writes it: `consumed-by-all`, `older-than 7d`.
    public var description: String {
        switch self {
        case .none: "none"
        case .consumedByAll: "consumed-by-all"
        case .ownToken: "own-token"
        case .olderThan(let age): "older-than \(age)"
        }
    }
}

/// The transaction author written on save (`author`).
public enum TransactionAuthor: Sendable, Hashable, Codable {
    /// The process's name (the default).
    case processName
    /// This name.
    case named(String)
    /// No author at all (the missing-author bug).
    case none

    /// The author this process writes, or nil for none.
    public func resolved(processName: String) -> String? {
        switch self {
        case .processName: processName
        case let .named(name): name
        case .none: nil
        }
    }
}

/// Which authors' transactions `refresh: history` merges (`history-authors`).
public enum HistoryAuthors: Sendable, Hashable, Codable {
    /// Every author but this process's own (transactions without an author included).
    case allButOwn
    /// Only these authors (transactions without an author excluded).
    case only([String])
}

/// The view context's `stalenessInterval` (`staleness`).
public enum Staleness: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Never expire (`-1`, Core Data's default): a cached snapshot is always reused.
    case infinite
    /// Snapshots older than this are re-read; zero always re-reads.
    case interval(Duration)

    /// The value for `NSManagedObjectContext.stalenessInterval`: `-1` for infinite, else seconds.
    public var timeInterval: Double {
        switch self {
        case .infinite: -1
        case let .interval(duration): duration.seconds
        }
    }

    /// `-1`, or the interval as a duration.
    public var description: String {
        switch self {
        case .infinite: "-1"
        case let .interval(duration): duration.description
        }
    }
}

// The settings' keywords, defined in Basics, as scenario files spell them.
extension ProcessRole: ScenarioKeyword {}
extension RefreshStrategy: ScenarioKeyword {}
extension RefreshTrigger: ScenarioKeyword {}
extension ObserveTiming: ScenarioKeyword {}
extension MergePolicy: ScenarioKeyword {}
extension RefetchMode: ScenarioKeyword {}
extension DeliveryPolicy: ScenarioKeyword {}
extension QueryGeneration: ScenarioKeyword {}
extension HistoryStart: ScenarioKeyword {}
extension ChangeOperation: ScenarioKeyword {}
extension BetweenWork: ScenarioKeyword {}
extension IntentTarget: ScenarioKeyword {}
extension OnNewerModel: ScenarioKeyword {}
extension ForeignToken: ScenarioKeyword {}
extension WriteTransactions: ScenarioKeyword {}
extension LoadFailure: ScenarioKeyword {}
extension StorageLocation: ScenarioKeyword {}
extension AttributeType: ScenarioKeyword {}

extension PersistenceFramework: ScenarioKeyword {
    /// The frameworks as their names are also written.
    static var aliases: [String: PersistenceFramework] {
        ["core-data": .coreData, "CoreData": .coreData, "swift-data": .swiftData, "SwiftData": .swiftData]
    }
}
