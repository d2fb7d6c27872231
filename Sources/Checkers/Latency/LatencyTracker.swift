import Basics
import Trace

/// Follows every committed save to every other process reading the same store, and to the
/// processes of other stores (a watch with its own store, reached through sync), in one pass:
/// commit, then the first notification received, then the first refresh that brought it into the
/// reader's context, then the first read (final or not) or count showing it. Across stores, versions
/// mean nothing (each store counts its own), so a read there shows a save by its values; a sync
/// import is not followed again.
///
/// "Refreshed" is the end of the first refresh that began after the commit completed (the harness's
/// own final refresh aside), unless a read or count begun after that refresh still did not show the
/// save: such a refresh did not bring the data (`refreshAllObjects()` at staleness -1 refills from the
/// row cache), and the next refresh is tried. It is the headline latency: how fast a strategy gets the
/// data into the reader's context, whenever the reader happens to look.
///
/// A read shows an update when its version is at least the committed one, or when every written
/// property it read matches the committed value; it shows an insert when it finds the object (or a
/// count includes it) and a delete when it does not. Showing a later save of an object shows the
/// earlier ones too. A save a reader never looked for (never read the object or counted its entity
/// after the commit) is left out of "first shown": nothing could have shown it.
struct LatencyTracker {
    private struct Pending {
        var record: Int
        var version: Int64
        var operation: ChangeOperation
        var values: TraceValues
        /// The reader reads another store: judged by values, never by version.
        var crossStore = false
    }

    /// Records in commit order, consumed from `head` as a stage is reached.
    private struct Queue {
        var items: [Int] = []
        var head = 0

        mutating func append(_ item: Int) { items.append(item) }

        var first: Int? { head < items.count ? items[head] : nil }

        mutating func removeFirst() {
            head += 1
            if head > 1024, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
        }
    }

    let context: RunContext
    /// Every reader (a process of the header) and every committed object, numbered: what is kept per reader
    /// or per object is kept in arrays at its number. Callers pass a process's number (nil for one the
    /// header does not name), found once per event.
    private let numbers: TraceNumbers
    private let readerNames: [String]
    /// Each reader's last lifecycle state so far: a save committed while a reader was not running (not
    /// launched yet, exited, crashed) is not a sample of that pair, as nothing could have carried it.
    private var states: [LifecycleState?]
    /// Whether any process's lifecycle was recorded yet (a reader or not).
    private var anyLifecycle = false
    /// One save on its way to one reader: a `Propagation` once kept, with its commit and its pair by number.
    /// A long run makes hundreds of thousands: four names each made them three times as large, and the
    /// memory for them (fresh from the system) slower to fill.
    private struct Sample {
        /// The commit, in `commitFacts`.
        private var commitNumber: Int32
        /// The (writer, reader) pair, in `pairs`.
        private var pairNumber: Int32
        var committedAt: UInt64
        private var notified: UInt64 = 0
        private var refreshed: UInt64 = 0
        private var seen: UInt64 = 0
        /// Which of `notified`, `refreshed` and `seen` are set (bits 0, 1, 2): an optional each took twice the room.
        private var known: UInt8 = 0

        init(commit: Int, pair: Int, committedAt: UInt64) {
            commitNumber = Int32(commit)
            pairNumber = Int32(pair)
            self.committedAt = committedAt
        }

        var commit: Int { Int(commitNumber) }
        var pair: Int { Int(pairNumber) }

        var notifiedAt: UInt64? {
            get { known & 1 != 0 ? notified : nil }
            set { (notified, known) = Self.set(newValue, bit: 1, value: notified, known: known) }
        }

        var refreshedAt: UInt64? {
            get { known & 2 != 0 ? refreshed : nil }
            set { (refreshed, known) = Self.set(newValue, bit: 2, value: refreshed, known: known) }
        }

        var seenAt: UInt64? {
            get { known & 4 != 0 ? seen : nil }
            set { (seen, known) = Self.set(newValue, bit: 4, value: seen, known: known) }
        }

        private static func set(_ instant: UInt64?, bit: UInt8, value: UInt64, known: UInt8) -> (UInt64, UInt8) {
            guard let instant else { return (value, known & ~bit) }
            return (instant, known | bit)
        }
    }

    /// What a propagation says of the commit it follows.
    private struct CommitFacts {
        var store: String
        var step: Int?
        /// The first object of the save.
        var object: String
    }

    private var records: [Sample] = []
    private var commitFacts: [CommitFacts] = []
    /// Every (writer, reader) pair a record was made for, in the order first made; `pairIDs` finds one
    /// at `writer * readerNames.count + reader` (-1: none yet), writers numbered by `writerIDs`.
    private var pairs: [(writer: String, reader: Int)] = []
    /// Beside each pair: how many samples it has (room for its latencies is made at once at the end).
    private var pairSamples: [Int] = []
    /// An array, not a dictionary: hashing an integer key for every reader of every commit cost more than
    /// the pair's bookkeeping.
    private var pairIDs: [Int] = []
    private var writerIDs = NameTable()
    private var readersByStore: [String: [Int]] = [:]
    /// Stores committed to, numbered; beside each, `candidates(of:acrossStores:)` both ways.
    private var committedStores = NameTable()
    private var commitReaders: [(local: [(Int, Bool)], all: [(Int, Bool)])] = []
    private var awaitingNotification: [Queue]
    /// Per reader: records no refresh has brought yet (in no particular order).
    private var awaitingRefresh: [[Int]]
    private var refreshStart: [UInt64?]
    /// Per (reader, object): saves not shown yet, and how many of them (from the front) the reader has
    /// looked at, reading the object without showing them. A save the reader never looked for is not
    /// counted as "never shown": nothing could have shown it.
    private struct PendingList {
        var entries: [Pending] = []
        var looked = 0
        /// Some entry comes from another store, so versions cannot be compared.
        var crossStore = false

        /// Adds `pending` after the entries of lower or equal version (at the end, across stores).
        mutating func add(_ pending: Pending, crossStore: Bool) {
            var at = entries.count
            while !crossStore, at > 0, entries[at - 1].version > pending.version { at -= 1 }
            // Nearly always at the end: appended, not inserted (an insert at the end takes the general, slower path).
            if at == entries.count { entries.append(pending) } else { entries.insert(pending, at: at) }
            if crossStore { self.crossStore = true }
        }

        /// The last entry `read` shows: by version within the store, else by values among the last `limit`.
        func lastShown(by read: Observation, scanning limit: Int) -> Int? {
            if read.found, let version = read.version, !crossStore {
                guard let index = entries.lastIndex(atOrBefore: UInt64(clamping: version), time: { UInt64(clamping: $0.version) }),
                      entries[index].operation != .delete else { return nil }
                return index
            }
            let low = Swift.max(0, entries.count - limit)
            return entries[low...].lastIndex { LatencyTracker.shows(read, $0) }
        }
    }

    /// By object number, per reader (empty until a commit of the object is followed).
    private var pendingObjects: [[PendingList]]
    /// Records a reader looked for (read the object or counted the entity) after their commit.
    private var looked: [Bool] = []
    /// Per reader, by entity: by object number.
    private var pendingMembers: [[String: [Int: Pending]]]
    /// By object number: the count that last held the object (`countStamp`), so a count's ids are found
    /// without a set of them.
    private var countMarks: [Int]
    private var countStamp = 0
    /// Values scanned when a read has no version to compare.
    private let valueScanLimit = 64

    /// - Parameter commits: how many commits the trace holds: each makes a sample per other process at
    ///   most, and room for them is made at once (a million-event trace grew its samples by copying them
    ///   again and again).
    init(context: RunContext, numbers: TraceNumbers, commits: Int = 0) {
        self.context = context
        self.numbers = numbers
        readerNames = numbers.processes
        for process in context.info.processes {
            readersByStore[process.store, default: []].append(numbers.process(process.name)!)
        }
        pendingObjects = Array(repeating: [], count: numbers.objectCount)
        countMarks = Array(repeating: 0, count: numbers.objectCount)
        states = Array(repeating: nil, count: readerNames.count)
        awaitingNotification = Array(repeating: Queue(), count: readerNames.count)
        awaitingRefresh = Array(repeating: [], count: readerNames.count)
        refreshStart = Array(repeating: nil, count: readerNames.count)
        pendingMembers = Array(repeating: [:], count: readerNames.count)
        let (samples, overflow) = commits.multipliedReportingOverflow(by: Swift.max(0, context.info.processes.count - 1))
        commitFacts.reserveCapacity(commits)
        if !overflow && samples > 0 {
            records.reserveCapacity(samples)
            looked.reserveCapacity(samples)
        }
    }

    mutating func commit(_ commit: SaveCommit, writer: String, step: Int?, t: UInt64) {
        // A restore, a migration or the starting store file is no process's write: nothing propagates from it.
        guard commit.source.propagates, let first = commit.objects.first else { return }
        let candidates = candidates(of: commit.store, acrossStores: commit.source != .syncImport)
        let writerID = writerIDs.add(writer)
        let readers = candidates.filter { readerNames[$0.0] != writer && isRunning($0.0) }
        guard !readers.isEmpty else { return }
        let firstRecord = records.count
        let facts = commitFacts.count
        commitFacts.append(CommitFacts(store: commit.store, step: step, object: first.id))
        for (reader, _) in readers {
            let record = records.count
            let pair = pair(writer: writer, writerID: writerID, reader: reader)
            pairSamples[pair] += 1
            records.append(Sample(commit: facts, pair: pair, committedAt: t))
            looked.append(false)
            awaitingNotification[reader].append(record)
            awaitingRefresh[reader].append(record)
        }
        for object in commit.objects {
            // Kept in version order: a writer may record its commit after a later one's. Changed in place: a
            // copy out of the dictionary would copy a long list on every commit.
            let position = numbers.object(object.id)!
            if pendingObjects[position].isEmpty {
                pendingObjects[position] = Array(repeating: PendingList(), count: readerNames.count)
            }
            for (offset, (reader, crossStore)) in readers.enumerated() {
                let pending = Pending(record: firstRecord + offset, version: object.version, operation: object.operation,
                                      values: object.values, crossStore: crossStore)
                pendingObjects[position][reader].add(pending, crossStore: crossStore)
                if object.operation != .update {
                    // A count of the entity, or of a parent entity of it, shows the insert or the delete.
                    for entity in context.info.ancestry(of: object.entity) {
                        pendingMembers[reader][entity, default: [:]][position] = pending
                    }
                }
            }
        }
    }

    /// Who may read a commit to `store`, with whether each reads it from another store: the store's own
    /// readers, then (`acrossStores`: all but a sync import) every other store's. Made once per store: built
    /// anew for every commit, the lists cost more than the commit's bookkeeping.
    private mutating func candidates(of store: String, acrossStores: Bool) -> [(Int, Bool)] {
        if let known = committedStores.number(of: store) {
            return acrossStores ? commitReaders[known].all : commitReaders[known].local
        }
        let local = (readersByStore[store] ?? []).map { ($0, false) }
        var all = local
        for (other, ids) in readersByStore where other != store { all += ids.map { ($0, true) } }
        committedStores.add(store)
        commitReaders.append((local, all))
        return acrossStores ? all : local
    }

    /// The pair of `writer` (numbered `writerID`) and `reader` in `pairs`, made when new.
    private mutating func pair(writer: String, writerID: Int, reader: Int) -> Int {
        let key = writerID * readerNames.count + reader
        if key >= pairIDs.count { pairIDs += Array(repeating: -1, count: key + 1 - pairIDs.count) }
        if pairIDs[key] >= 0 { return pairIDs[key] }
        pairIDs[key] = pairs.count
        pairs.append((writer: writer, reader: reader))
        pairSamples.append(0)
        return pairs.count - 1
    }

    /// A process's lifecycle changed (the runner records launches, exits, crashes).
    mutating func lifecycle(_ state: LifecycleState, of reader: Int?) {
        anyLifecycle = true
        if let reader { states[reader] = state }
    }

    /// A reader runs unless its last state says otherwise; before any process's lifecycle is known (a
    /// trace without them), every reader counts as running.
    private func isRunning(_ reader: Int) -> Bool {
        guard let state = states[reader] else { return !anyLifecycle }
        return state.isRunning
    }

    /// A notification arrived; one posted before a commit cannot be that commit's.
    mutating func notificationReceived(by reader: Int?, t: UInt64, postedAt: UInt64? = nil) {
        guard let reader else { return }
        let posted = postedAt.map { Swift.min($0, t) } ?? t
        while let record = awaitingNotification[reader].first, records[record].committedAt <= posted {
            records[record].notifiedAt = t
            awaitingNotification[reader].removeFirst()
        }
    }

    mutating func refreshStarted(by reader: Int?, t: UInt64) {
        guard let reader else { return }
        refreshStart[reader] = t
    }

    /// A refresh ended: every save that completed before it began is brought (until a later read
    /// says otherwise). The harness's final refresh is not the strategy's and brings nothing here.
    mutating func refreshEnded(_ refresh: RefreshRecord, by reader: Int?, t: UInt64) {
        guard let reader else { return }
        let start = refreshStart[reader] ?? t
        refreshStart[reader] = nil
        let waiting = awaitingRefresh[reader]
        guard refresh.reason != .final, !waiting.isEmpty else { return }
        var still: [Int] = []
        for record in waiting {
            if records[record].committedAt < start {
                records[record].refreshedAt = t
            } else {
                still.append(record)
            }
        }
        awaitingRefresh[reader] = still
    }

    /// A read or count begun at `invoked` did not show `record`: a refresh that ended before it did
    /// not bring the save after all.
    private mutating func notBrought(_ record: Int, by reader: Int, invoked: UInt64) {
        guard let refreshed = records[record].refreshedAt, refreshed < invoked else { return }
        records[record].refreshedAt = nil
        awaitingRefresh[reader].append(record)
    }

    /// A read by `reader` of the object numbered `object` (nil for one no commit wrote).
    mutating func observed(_ read: Observation, by reader: Int?, object position: Int?, invoked: UInt64, t: UInt64) {
        guard let reader, let position, !pendingObjects[position].isEmpty,
              !pendingObjects[position][reader].entries.isEmpty else { return }
        // Changed in place: a list copied out and back was reallocated by the next commit of the object.
        if let shown = pendingObjects[position][reader].lastShown(by: read, scanning: valueScanLimit) {
            for entry in pendingObjects[position][reader].entries[...shown] where records[entry.record].seenAt == nil {
                records[entry.record].seenAt = t
            }
            pendingObjects[position][reader].entries.removeFirst(shown + 1)
        }
        for entry in pendingObjects[position][reader].entries { notBrought(entry.record, by: reader, invoked: invoked) }
        pendingObjects[position][reader].looked = pendingObjects[position][reader].entries.count
    }

    /// A count by `reader`, the payload of `event`, whose ids the event numbers (for the count checker too).
    mutating func counted(_ count: CountObservation, event: inout JudgedEvent, by reader: Int?) {
        guard let reader, let members = pendingMembers[reader][count.entity], !members.isEmpty else { return }
        let invoked = event.invoked, t = event.t
        countStamp += 1
        for number in event.numbers(of: count.ids, in: numbers) {
            if let number { countMarks[number] = countStamp }
        }
        var remaining: [Int: Pending] = [:]
        for (number, entry) in members where records[entry.record].seenAt == nil {
            let inView = countMarks[number] == countStamp
            let isShown = entry.operation == .insert ? inView : (!inView && count.predicate == nil)
            if isShown {
                records[entry.record].seenAt = t
            } else {
                remaining[number] = entry
                looked[entry.record] = true
                // A count without a predicate that lacks an insert (or keeps a delete) did not get it.
                if count.predicate == nil && count.final { notBrought(entry.record, by: reader, invoked: invoked) }
            }
        }
        pendingMembers[reader][count.entity] = remaining
    }

    private static func shows(_ read: Observation, _ entry: Pending) -> Bool {
        guard entry.operation != .delete else { return !read.found }
        guard read.found else { return false }
        var compared = 0
        for (property, value) in entry.values {
            guard let seen = read.values[property], !read.dirty.contains(property) else { continue }
            guard seen.matches(value) else { return false }
            compared += 1
        }
        return compared > 0
    }

    /// The report, keeping only saves each reader showed, or looked for in vain while alive.
    func finish(lastEvent: [String: UInt64]) -> LatencyReport {
        var looked = self.looked
        for lists in pendingObjects {
            for list in lists {
                for entry in list.entries.prefix(list.looked) { looked[entry.record] = true }
            }
        }
        let lastHeard = readerNames.map { lastEvent[$0] ?? 0 }
        struct Stats {
            var shown: LatencySamples
            var notified: LatencySamples
            var refreshed: LatencySamples
            var unseen = 0
            var unrefreshed = 0

            init(capacity: Int) {
                shown = LatencySamples(capacity: capacity)
                notified = LatencySamples(capacity: capacity)
                refreshed = LatencySamples(capacity: capacity)
            }
        }
        /// Per pair of `pairs`, its position in `stats` once a record of it is kept.
        var index: [Int?] = Array(repeating: nil, count: pairs.count)
        var stats: [Stats] = []
        // Room for every latency is made at once: grown by doubling, a long run's lists were copied again
        // and again, each time into memory the system had to hand over afresh.
        var overallShown = LatencySamples(capacity: records.count)
        var overallRefreshed = LatencySamples(capacity: records.count)
        var kept: [Propagation] = []
        kept.reserveCapacity(records.count)
        for (i, var record) in records.enumerated() where lastHeard[pairs[record.pair].reader] > record.committedAt {
            let counted = record.seenAt != nil || looked[i]
            let pair = record.pair
            // A read that showed the save brought it, refresh or not (a fetch reads the store's rows, a
            // relaunched widget starts from them).
            if let seen = record.seenAt, record.refreshedAt.map({ seen < $0 }) ?? true { record.refreshedAt = seen }
            guard counted || record.refreshedAt != nil else { continue }
            let facts = commitFacts[record.commit]
            kept.append(Propagation(
                writer: pairs[pair].writer, reader: readerNames[pairs[pair].reader], store: facts.store, step: facts.step,
                object: facts.object, committedAt: record.committedAt, notifiedAt: record.notifiedAt,
                refreshedAt: record.refreshedAt, seenAt: record.seenAt))
            let i: Int
            if let known = index[pair] {
                i = known
            } else {
                i = stats.count
                index[pair] = i
                stats.append(Stats(capacity: pairSamples[pair]))
            }
            if let seen = record.seenAt {
                stats[i].shown.record(seen - record.committedAt)
                overallShown.record(seen - record.committedAt)
            } else if counted {
                stats[i].unseen += 1
            }
            if let refreshed = record.refreshedAt {
                stats[i].refreshed.record(refreshed - record.committedAt)
                overallRefreshed.record(refreshed - record.committedAt)
            } else {
                stats[i].unrefreshed += 1
            }
            if let notified = record.notifiedAt { stats[i].notified.record(notified - record.committedAt) }
        }
        let keptPairs = self.pairs.indices.compactMap { pair in
            index[pair].map { (writer: self.pairs[pair].writer, reader: readerNames[self.pairs[pair].reader], stats: $0) }
        }
        // One second buffer for every sort, as long as the longest list (the overall ones).
        var scratch = [UInt64](repeating: 0, count: Swift.max(overallShown.values.count, overallRefreshed.values.count))
        let pairs = keptPairs.sorted { ($0.writer, $0.reader) < ($1.writer, $1.reader) }.map { pair in
            // Moved out, not copied: a copy's samples, shared with the list's, were copied again to be sorted.
            var s = Stats(capacity: 0)
            swap(&s, &stats[pair.stats])
            s.refreshed.sort(scratch: &scratch)
            s.shown.sort(scratch: &scratch)
            s.notified.sort(scratch: &scratch)
            return PairLatency(
                writer: pair.writer, reader: pair.reader, refreshed: LatencySummary(s.refreshed),
                shown: LatencySummary(s.shown), notified: LatencySummary(s.notified), unrefreshed: s.unrefreshed,
                unseen: s.unseen, refreshedBuckets: s.refreshed.displayBuckets(), shownBuckets: s.shown.displayBuckets())
        }
        // The headline pair is one whose reader looked for the writer's saves (read or counted what they
        // changed: the checks a variant's expectations rest on) when there is one; among those, one whose
        // saves never reached the reader (the most of them), else the slowest to refresh.
        let watched = pairs.filter { $0.shown != nil || $0.unseen > 0 }
        let candidates = watched.isEmpty ? pairs : watched
        let headline = candidates.filter { $0.refreshed == nil && $0.unrefreshed > 0 }.max { $0.unrefreshed < $1.unrefreshed }
            ?? candidates.filter { $0.refreshed != nil }.max { $0.refreshed!.p99 < $1.refreshed!.p99 }
        overallRefreshed.sort(scratch: &scratch)
        overallShown.sort(scratch: &scratch)
        return LatencyReport(
            pairs: pairs, headline: headline.map { LatencyPair(writer: $0.writer, reader: $0.reader) },
            refreshed: LatencySummary(overallRefreshed), shown: LatencySummary(overallShown),
            refreshedBuckets: overallRefreshed.displayBuckets(), shownBuckets: overallShown.displayBuckets(),
            propagations: kept)
    }
}

extension LatencyTracker: TraceJudge {
    static var sees: EventKinds {
        [.saveCommitted, .observed, .counted, .notificationReceived, .refreshStarted, .refreshEnded, .lifecycle]
    }

    mutating func see(_ event: inout JudgedEvent, into findings: inout CheckFindings) {
        if event.kinds == .observed {
            // Numbered before the read is bound (see `JudgedEvent.observation`).
            let reader = event.number(in: numbers), object = event.observedObject(in: numbers)
            guard let read = event.observation, read.store == nil else { return }
            observed(read, by: reader, object: object, invoked: event.invoked, t: event.t)
            return
        }
        switch event.kind {
        case .saveCommitted(let save):
            commit(save, writer: event.process, step: event.step, t: event.t)
        case .counted(let count):
            // Tested inside the case: a `where` clause copied the payload a second time.
            guard count.store == nil else { return }
            counted(count, event: &event, by: event.number(in: numbers))
        case .notificationReceived(let notification):
            notificationReceived(by: event.number(in: numbers), t: event.t, postedAt: notification.postedAt)
        case .refreshStarted:
            refreshStarted(by: event.number(in: numbers), t: event.t)
        case .refreshEnded(let refresh):
            refreshEnded(refresh, by: event.number(in: numbers), t: event.t)
        case .lifecycle(let change):
            lifecycle(change.state, of: event.number(in: numbers))
        default:
            break
        }
    }

    mutating func finish(into findings: inout CheckFindings) {
        findings.latency = finish(lastEvent: findings.lastEvents)
    }
}
