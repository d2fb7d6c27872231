import Basics

/// What a step does: a process's action, or a control step.
///
/// Process actions are written `- <process>: <action>` (`- app: save`,
/// `- app: { insert: Note, id: n1, set: { title: A } }`); control steps stand alone (`- sleep: 50ms`).
public enum Step: Sendable, Hashable, Codable {
    // MARK: Lifecycle

    /// Start the process.
    case launch
    /// Exit cleanly.
    case exit
    /// SIGKILL now; work not saved is lost.
    case crash
    /// Go to the background: keeps running and still receives notifications.
    case background
    /// SIGSTOP: runs nothing until resumed.
    case suspend
    /// SIGCONT after `suspend`.
    case resume
    /// Become active; runs the refresh with `trigger: activation`.
    case foreground
    /// Terminate, as iOS terminates a suspended app.
    case terminate
    /// Register for notifications now (for `observe: lazy`).
    case observe
    /// Handle every notification delivered to the process so far, now (with the refreshes they
    /// trigger). Written by `explore` into counterexamples, where the schedule delivered early.
    case deliver
    /// A push arrives for this notification service extension: the system launches it, it runs its
    /// `on-push:` work (with the payload's values where the work writes `$name`), and it exits.
    case push(PushPayload?)
    /// Ask the system to reload widget timelines (`WidgetCenter.reloadTimelines(ofKind:)`): one widget's,
    /// or every widget's when `widget` is nil. The system runs each reload after the widget's
    /// `reload-delay`, within its `reload-budget` per simulated day.
    case reloadTimelines(widget: String?)
    /// Ask the system to reload controls (`ControlCenter.reloadControls(ofKind:)`): one control's, or every
    /// control's when `control` is nil (`reloadAllControls()`). The system runs each reload after the
    /// control's `reload-delay`.
    case reloadControls(control: String?)
    /// The system reloading this widget, as a `reloadTimelines` request at step `requestedAt` asked (or,
    /// `byTimelinePolicy`, as the timeline its reload after step `requestedAt` returned asked):
    /// launch or resume it, run its refresh strategy and its `on-reload:` work, then suspend or exit it.
    /// Made by the runner's plan, never written in a file.
    case reload(requestedAt: Int, byTimelinePolicy: Bool = false)
    /// A SwiftData main context's autosave (`autosaveEnabled`): saves it when it has changes. Made by the
    /// runner's plan after the first change has waited `autosave-delay` (changes made at step
    /// `changedAt`), or when the app goes to the background; never written in a file.
    case autosave(changedAt: Int)

    // MARK: Objects and contexts

    /// Insert an object of `entity` known to the scenario as `id`, with attribute `values`.
    case insert(entity: String, id: String, values: [String: Value])
    /// Change attribute values of the object `id` (reached by id when it is not in the view).
    case update(id: String, values: [String: Value])
    /// Delete the object `id`.
    case delete(id: String)
    /// Set the boolean `property` of `id` to the opposite of a value read as `reads` says: what the control
    /// whose tap runs this intent shows (a `SetValueIntent`'s `value`), or what this step's context holds.
    case toggle(id: String, property: String, reads: ToggleReading)
    /// Add `to` to the relationship `via` of `id`: for an ordered to-many, at its end, or at position `at`
    /// (from 0; a member moves there).
    case relate(id: String, to: String, via: String, at: Int? = nil)
    /// Remove `from` from the relationship `via` of `id`.
    case unrelate(id: String, from: String, via: String)
    /// Save the view context.
    case save
    /// Discard unsaved changes.
    case rollback
    /// Reset the view context.
    case reset
    /// Fetch `entity` (optionally filtered and sorted) and register the results in the view.
    case fetch(entity: String, predicate: FetchPredicate?, sort: [SortKey], options: FetchOptions = FetchOptions())
    /// `refreshAllObjects()`, whatever the strategy.
    case refreshAll
    /// `refresh(_:mergeChanges:)` of one object.
    case refresh(id: String, mergeChanges: Bool)
    /// Run this process's refresh strategy now.
    case runRefresh
    /// Insert `count` objects straight into the store, bypassing every context.
    case batchInsert(entity: String, count: Int, values: [String: Value])
    /// Update the matching objects straight in the store.
    case batchUpdate(entity: String, predicate: FetchPredicate?, values: [String: Value])
    /// Delete the matching objects straight from the store.
    case batchDelete(entity: String, predicate: FetchPredicate?)
    /// Pin the step's context (the view context without `context:`) to the current query generation, or,
    /// `from` a context of the process (`view`, or a background context's name), to the generation that
    /// context is pinned to (Core Data's `setQueryGenerationFrom(other.queryGenerationToken)`).
    case pinGeneration(from: String?)
    /// Unpin the step's context.
    case unpinGeneration
    /// Take the store's write lock and hold it across steps.
    case beginWrite
    /// Release the write lock taken by `beginWrite`.
    case endWrite

    // MARK: History, notifications, files, sync

    /// Fetch history after the saved token and merge it.
    case mergeHistory
    /// Purge history by `policy`, or by the process's `purge` setting when nil.
    /// `expectDeleted`: how many transactions the purge must delete (a check).
    case purgeHistory(policy: PurgePolicy?, expectDeleted: Int? = nil)
    /// Post a payload-less notification by name.
    case post(name: String)
    /// A TRUNCATE checkpoint.
    case checkpoint
    /// Copy the store's files as a naive backup does, under `name`; without the WAL when `withWAL` is false.
    case copyStore(name: String, withWAL: Bool)
    /// Open the copy `name` read-only; later fetches and checks of this process use it.
    case openCopy(name: String)
    /// Export this store's changes since the last sync and import every peer's.
    case sync
    /// Join the ensemble, exporting the current contents once as a baseline.
    case leech

    // MARK: Checks

    /// Read the object `id` from the view and check it against `expectation` (when given).
    case read(id: String, expectation: ReadExpectation?, timing: CheckTiming)
    /// Count the objects of `entity` in the view (optionally filtered) and check it is `expected`.
    case count(entity: String, expected: Int, predicate: FetchPredicate?, timing: CheckTiming)
    /// Check what the fetched-results controller `controller` (made by a `fetch` with `controller:`)
    /// holds and how often it told its delegate of a change.
    case results(controller: String, expectation: ResultsExpectation, timing: CheckTiming)
    /// Check the object's state in the context without firing its fault (`isFault`, `isDeleted`,
    /// whether it is registered).
    case state(id: String, expectation: ObjectStateExpectation, timing: CheckTiming)

    // MARK: Control

    /// Wait.
    case sleep(Duration)
    /// Start these steps together and wait for all of them.
    case parallel([ScenarioStep])
    /// These steps in order, as one child of `parallel` (a nested list there): the branch runs them one
    /// after another while the other children run theirs.
    case sequence([ScenarioStep])
    /// Move the simulated wall clock every process sees.
    case advanceClock(by: Duration)
    /// Random operations from the seed.
    case workload(Workload)
    /// A fault injected into the notification hub or a process.
    case fault(Fault)
    /// Replace the group store with a copy taken by `copy-store` (Core Data's
    /// `replacePersistentStore(at:withPersistentStoreFrom:)`): the restored store gets a new identifier.
    /// Every process of the store must have exited.
    case restoreStore(from: String)
    /// The app is updated to a model version of `store.models` (the App Store installs it): every process
    /// launched after this step opens the store with that version, while a process running keeps the
    /// version it was launched with until it ends (an extension's process outliving the update, BUGS.md 29).
    case appUpdate(version: String)
}

/// When a check decides.
public enum CheckTiming: Sendable, Hashable, Codable {
    /// Read once, now (`now: true`).
    case now
    /// Re-read until the check holds or the deadline passes (`within: 200ms`; 1s when neither is given).
    case within(Duration)

    /// The default when a check says neither `within` nor `now`.
    public static let defaultWithin = CheckTiming.within(.seconds(1))

    /// How long the check may be asked again, in nanoseconds (0: once).
    public var nanos: UInt64 {
        switch self {
        case .now: 0
        case .within(let duration): duration.nanos
        }
    }
}

/// What a `state` check expects of an object in a context: each given flag must hold; nil is not checked.
public struct ObjectStateExpectation: Sendable, Hashable, Codable {
    /// `isFault`: its values are not in memory (a registered object turned into a fault, or one not registered).
    public var fault: Bool?
    /// `isDeleted`: deleted in this context and not saved yet (or a fault whose row was gone, with
    /// `delete-inaccessible-faults` on).
    public var deleted: Bool?
    /// Whether the context has the object registered (`registeredObject(for:)` finds it).
    public var registered: Bool?

    public init(fault: Bool? = nil, deleted: Bool? = nil, registered: Bool? = nil) {
        self.fault = fault
        self.deleted = deleted
        self.registered = registered
    }

    /// The keys of `expect:`, in order.
    public static let keys = ["fault", "deleted", "registered"]
}

/// What a `read` expects to see.
public enum ReadExpectation: Sendable, Hashable, Codable {
    /// The object is in the view with these attribute values and these relationships' contents (scenario
    /// ids; a to-one holds at most one), others not checked.
    case values([String: Value], related: [String: [String]] = [:])
    /// The object is not in the view (`expect: absent`).
    case absent
}

/// What a `toggle` negates.
public enum ToggleReading: String, Sendable, Hashable, Codable, CaseIterable, ScenarioKeyword {
    /// The value the control whose tap runs the intent shows, as its last reload rendered it: the system
    /// hands it to a `ControlWidgetToggle`'s `SetValueIntent` as `value`, negated. Only for an intent with
    /// `control:`, where it is the default.
    case control
    /// The value the context the step runs through holds, read as a `read` step reads it (faults follow
    /// the staleness rules); an intent's own context reads the store. The default elsewhere.
    case context
}
