import Basics

extension TraceEventKind {
    /// The `type` field of the event's JSON form.
    public var type: String {
        switch self {
        case .runStarted: "runStarted"
        case .lifecycle: "lifecycle"
        case .stepStarted: "stepStarted"
        case .stepEnded: "stepEnded"
        case .saveCommitted: "saveCommitted"
        case .saveFailed: "saveFailed"
        case .conflict: "conflict"
        case .notificationPosted: "notificationPosted"
        case .notificationReceived: "notificationReceived"
        case .notificationRouted: "notificationRouted"
        case .refreshStarted: "refreshStarted"
        case .refreshEnded: "refreshEnded"
        case .historyFetched: "historyFetched"
        case .purged: "purged"
        case .sqlRead: "sqlRead"
        case .faultFulfilled: "faultFulfilled"
        case .snapshotDropped: "snapshotDropped"
        case .observed: "observed"
        case .counted: "counted"
        case .check: "check"
        case .error: "error"
        case .verified: "verified"
        case .finalStore: "finalStore"
        case .storeGrowth: "storeGrowth"
        case .finalView: "finalView"
        case .note: "note"
        case .warning: "warning"
        case .harnessFailed: "harnessFailed"
        }
    }

    private struct Routed: Codable { var notification: NotificationRecord; var decision: HubDecision }
    private struct SQLRead: Codable { var entity: String; var rows: Int }
    private struct Fault: Codable { var object: String; var source: ReadSource }
    private struct Dropped: Codable { var object: String }
    private struct Ended: Codable { var error: ErrorRecord? }

    func encodePayload<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, key: Key) throws {
        switch self {
        case .runStarted(let v): try container.encode(v, forKey: key)
        case .lifecycle(let v): try container.encode(v, forKey: key)
        case .stepStarted: break
        case .stepEnded(let v): try container.encode(Ended(error: v), forKey: key)
        case .saveCommitted(let v): try container.encode(v, forKey: key)
        case .saveFailed(let v): try container.encode(v, forKey: key)
        case .conflict(let v): try container.encode(v, forKey: key)
        case .notificationPosted(let v): try container.encode(v, forKey: key)
        case .notificationReceived(let v): try container.encode(v, forKey: key)
        case .notificationRouted(let v, let decision):
            try container.encode(Routed(notification: v, decision: decision), forKey: key)
        case .refreshStarted(let v): try container.encode(v, forKey: key)
        case .refreshEnded(let v): try container.encode(v, forKey: key)
        case .historyFetched(let v): try container.encode(v, forKey: key)
        case .purged(let v): try container.encode(v, forKey: key)
        case .sqlRead(let entity, let rows): try container.encode(SQLRead(entity: entity, rows: rows), forKey: key)
        case .faultFulfilled(let object, let source): try container.encode(Fault(object: object, source: source), forKey: key)
        case .snapshotDropped(let object): try container.encode(Dropped(object: object), forKey: key)
        case .observed(let v): try container.encode(v, forKey: key)
        case .counted(let v): try container.encode(v, forKey: key)
        case .check(let v): try container.encode(v, forKey: key)
        case .error(let v): try container.encode(v, forKey: key)
        case .verified(let v): try container.encode(v, forKey: key)
        case .finalStore(let v): try container.encode(v, forKey: key)
        case .storeGrowth(let v): try container.encode(v, forKey: key)
        case .finalView(let v): try container.encode(v, forKey: key)
        case .note(let v): try container.encode(v, forKey: key)
        case .warning(let v): try container.encode(v, forKey: key)
        case .harnessFailed(let v): try container.encode(v, forKey: key)
        }
    }

    static func decode<Key: CodingKey>(type: String, from c: KeyedDecodingContainer<Key>, key: Key) throws -> TraceEventKind {
        switch type {
        case "runStarted": return .runStarted(try c.decode(RunInfo.self, forKey: key))
        case "lifecycle": return .lifecycle(try c.decode(LifecycleChange.self, forKey: key))
        case "stepStarted": return .stepStarted
        case "stepEnded": return .stepEnded(try c.decodeIfPresent(Ended.self, forKey: key)?.error)
        case "saveCommitted": return .saveCommitted(try c.decode(SaveCommit.self, forKey: key))
        case "saveFailed": return .saveFailed(try c.decode(ErrorRecord.self, forKey: key))
        case "conflict": return .conflict(try c.decode(ConflictRecord.self, forKey: key))
        case "notificationPosted": return .notificationPosted(try c.decode(NotificationRecord.self, forKey: key))
        case "notificationReceived": return .notificationReceived(try c.decode(NotificationRecord.self, forKey: key))
        case "notificationRouted":
            let routed = try c.decode(Routed.self, forKey: key)
            return .notificationRouted(routed.notification, decision: routed.decision)
        case "refreshStarted": return .refreshStarted(try c.decode(RefreshRecord.self, forKey: key))
        case "refreshEnded": return .refreshEnded(try c.decode(RefreshRecord.self, forKey: key))
        case "historyFetched": return .historyFetched(try c.decode(HistoryFetch.self, forKey: key))
        case "purged": return .purged(try c.decode(PurgeRecord.self, forKey: key))
        case "sqlRead":
            let read = try c.decode(SQLRead.self, forKey: key)
            return .sqlRead(entity: read.entity, rows: read.rows)
        case "faultFulfilled":
            let fault = try c.decode(Fault.self, forKey: key)
            return .faultFulfilled(object: fault.object, source: fault.source)
        case "snapshotDropped": return .snapshotDropped(object: try c.decode(Dropped.self, forKey: key).object)
        case "observed": return .observed(try c.decode(Observation.self, forKey: key))
        case "counted": return .counted(try c.decode(CountObservation.self, forKey: key))
        case "check": return .check(try c.decode(CheckRecord.self, forKey: key))
        case "error": return .error(try c.decode(ErrorRecord.self, forKey: key))
        case "verified": return .verified(try c.decode(VerificationRecord.self, forKey: key))
        case "finalStore": return .finalStore(try c.decode(StateSnapshot.self, forKey: key))
        case "storeGrowth": return .storeGrowth(try c.decode(StoreGrowth.self, forKey: key))
        case "finalView": return .finalView(try c.decode(StateSnapshot.self, forKey: key))
        case "note": return .note(try c.decode(String.self, forKey: key))
        case "warning": return .warning(try c.decode(String.self, forKey: key))
        case "harnessFailed": return .harnessFailed(try c.decode(HarnessFailure.self, forKey: key))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key, in: c, debugDescription: "unknown trace event type '\(type)'")
        }
    }
}
