import Basics
import Trace

/// What happened to a reader between another process's commit and the reader's read, so an anomaly's
/// explanation can name the cause when the trace has it: a notification the hub dropped (and why), no
/// refresh at all, or a refresh that refilled the object from the row cache.
struct CauseIndex {
    private struct Routed {
        var t: UInt64
        var poster: String?
        var decision: HubDecision
    }

    private struct Refresh {
        var t: UInt64
        var kind: RefreshKind
        var reason: RefreshReason
    }

    private var routed: [String: [Routed]] = [:]
    private var refreshes: [String: [Refresh]] = [:]
    /// For each control, when its reloads read each object: process -> object -> times.
    private var renders: [String: [String: [UInt64]]] = [:]
    private let context: RunContext

    init(context: RunContext) {
        self.context = context
    }

    /// Takes in a routing decision of the hub, recorded at `t`.
    mutating func routed(_ record: NotificationRecord, decision: HubDecision, t: UInt64) {
        guard let receiver = record.to else { return }
        routed[receiver, default: []].append(Routed(t: t, poster: record.from, decision: decision))
    }

    /// Takes in a read of `object` by the control `process` at `t`: what one of its reloads rendered.
    mutating func rendered(_ object: String, by process: String, t: UInt64) {
        renders[process, default: [:]][object, default: []].append(t)
    }

    /// Takes in a refresh `process` started at `t`.
    mutating func refreshStarted(_ refresh: RefreshRecord, by process: String, t: UInt64) {
        refreshes[process, default: []].append(Refresh(t: t, kind: refresh.strategy, reason: refresh.reason))
    }

    /// Why `reader`, reading `object` at `readAt`, did not show what `writer` committed at `committedAt`;
    /// nil when the trace does not say.
    func cause(reader: String, object: String, writer: String, committedAt: UInt64, readAt: UInt64, source: ReadSource?) -> String? {
        // The system shows what the control's last reload rendered: no notification or refresh changes it.
        if source == .rendered {
            if let reload = renders[reader]?[object]?.last(where: { $0 >= committedAt && $0 <= readAt }) {
                return "\(reader)'s reload at \(context.at(reload)) rendered \(object) as its context held it, older than that "
                    + "save (see that reload's read), and the tap hands on what it rendered"
            }
            return "no reload of \(reader) ran since that save (the system reloads a control when the app asks, "
                + "reload-controls, and after the control's action runs)"
        }
        let drop = (routed[reader] ?? []).first { entry in
            entry.t >= committedAt && entry.t <= readAt && (entry.poster == nil || entry.poster == writer) && entry.decision.isLoss
        }
        if let drop {
            return "the notification of \(writer)'s save was \(Self.loss(drop.decision, reader: reader)) at \(context.at(drop.t))"
        }
        let process = context.info.processes.first { $0.name == reader }
        let ran = (refreshes[reader] ?? []).filter { $0.t >= committedAt && $0.t <= readAt && $0.reason != .final }
        if ran.isEmpty {
            // The reader's own commit that its view did not show: made outside the view context.
            if writer == reader {
                return "\(reader) committed it itself outside its view context (a batch operation bypasses every context, and "
                    + "another context's save, an App Intent's run in this process included, reaches the view only with "
                    + "automatically-merges), and nothing merged it into the view since"
            }
            if process?.refresh == RefreshStrategy.none {
                return "\(reader) has no refresh strategy (refresh: none), and automatic merging never covers another process"
            }
            return "no refresh ran in \(reader) between that save and the read (trigger: \((process?.trigger ?? .darwin).rawValue))"
        }
        // Refilled from the row cache at the refresh, then held in memory: either way the refill is why.
        if source == .cache || source == .memory, process?.cachedRowsNeverExpire == true,
           ran.contains(where: { $0.kind == .staleness || $0.kind == .refreshAll }) {
            return "\(reader)'s refresh ran at staleness -1 and refilled \(object) from the row cache"
        }
        return nil
    }

    /// How the hub lost a delivery, as a sentence part.
    static func loss(_ decision: HubDecision, reader: String) -> String {
        switch decision {
        case .droppedWhileSuspended: "dropped because \(reader) was suspended (delivery: drop)"
        case .droppedNotRunning: "lost because \(reader) was not running"
        case .droppedByFault: "dropped by a drop-notifications fault"
        case .droppedNotObserving: "lost because \(reader) was not observing yet"
        case .undeliverable: "undeliverable to \(reader)"
        default: "not delivered to \(reader)"
        }
    }
}
