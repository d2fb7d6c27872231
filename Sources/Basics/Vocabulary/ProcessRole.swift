/// The part a process plays. What a role decides (how the process comes to run, what it shows at the
/// run's end, the settings and work only it takes, its defaults) is in `traits`, one exhaustive switch:
/// a new role is a new case there, and the compiler names every trait it must choose.
public enum ProcessRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// The containing app: long-lived; foreground, background, suspended, terminated, launched again.
    case host
    /// A share extension: short-lived, launched, does its work, exits (or is killed).
    case share
    /// An action extension: short-lived like a share extension.
    case action
    /// A watch app: long-lived on its own device, with its own storage by default.
    case watch
    /// A widget extension: launched by the system to reload its timelines (`reload-timelines`), runs its
    /// `on-reload:` work, then is suspended and reused for the next reload, or exits (`between-reloads`).
    case widget
    /// A notification service extension: launched when a push arrives (`push`), runs its `on-push:`
    /// work, then exits, or is suspended and reused for the next push (`between-pushes`).
    case notificationService = "notification-service"
    /// A Control Center control (`ControlWidget`, iOS 18), in the widget extension: launched by the system
    /// to reload the value it shows (`reload-controls`), runs its `on-reload:` work, then is suspended or
    /// exits, as a widget does. Between reloads the system shows the value the last reload rendered; a tap
    /// runs the App Intent that names it (`control:`) with that value.
    case control
    /// An App Intent: its steps run in the host's process when the host is running and not suspended,
    /// otherwise in a widget's process, otherwise in a process of its own; always through a context of
    /// its own.
    case intent

    /// What the role decides (made once per role: roles are asked on every read and step).
    public var traits: RoleTraits {
        Self.table[Self.ordered.firstIndex(of: self)!]
    }

    private static let ordered = allCases
    private static let table = ordered.map(\.definition)

    /// The traits, one exhaustive switch.
    private var definition: RoleTraits {
        switch self {
        case .host:
            RoleTraits(name: "app", launch: .steps, display: .screen)
        case .share:
            RoleTraits(name: "share extension", launch: .steps, display: .screen, bundleHints: ["share"])
        case .action:
            RoleTraits(name: "action extension", launch: .steps, display: .screen)
        case .watch:
            RoleTraits(name: "watch app", launch: .steps, display: .screen, storage: .own, bundleHints: ["watch"])
        case .widget:
            RoleTraits(name: "widget", launch: .reloads(.timelines), display: .timeline,
                       settings: [.reloadDelay, .reloadBudget, .betweenReloads, .timelinePolicy, .onNewerModel],
                       work: "on-reload", bundleHints: ["widget"])
        case .notificationService:
            RoleTraits(name: "notification service extension", launch: .pushes, display: .nothing,
                       settings: [.betweenPushes], work: "on-push", bundleHints: ["notification", "service"])
        case .control:
            // A control has no timeline, and Apple documents no reload budget for controls
            // (`ControlCenter.reloadControls(ofKind:)`); it lives in the widget extension, so a bundle id
            // names it as a widget.
            RoleTraits(name: "control", launch: .reloads(.controls), display: .value,
                       settings: [.reloadDelay, .betweenReloads, .onNewerModel], work: "on-reload")
        case .intent:
            RoleTraits(name: "App Intent", launch: .performed, display: .nothing,
                       settings: [.widgetButton, .control, .runsIn], bundleHints: ["intent"])
        }
    }

    /// Whether the system, not the scenario, starts this process to render what it shows (widgets and
    /// controls, reloaded by `reload-timelines` and `reload-controls`): its refreshes run at its reloads,
    /// and between them it shows what the last reload rendered.
    public var isRenderedBySystem: Bool { traits.launch.reload != nil }

    /// Whether it is an App Intent, performed in another process's (or a process of its own) through a
    /// context of its own, rather than a process the scenario or the system starts for itself.
    public var isPerformed: Bool { traits.launch == .performed }

    /// The setting keys some role takes and others do not, with the roles that take each.
    public static let roleSettings: [SettingKey: [ProcessRole]] = Dictionary(
        allCases.flatMap { role in role.traits.settings.map { ($0, [role]) } }, uniquingKeysWith: +)

    /// The work keys (`on-reload:`, `on-push:`), with the roles that take each.
    public static let workKeys: [String: [ProcessRole]] = Dictionary(
        allCases.compactMap { role in role.traits.work.map { ($0, [role]) } }, uniquingKeysWith: +)
}

/// What a role decides about its processes (`ProcessRole.traits`).
public struct RoleTraits: Sendable, Hashable {
    /// How people name a process of the role in a sentence ("a widget", "an App Intent").
    public var name: String
    /// The name with its article ("a widget", "an App Intent").
    public var aName: String {
        (name.first.map { "aeiouAEIOU".contains($0) } == true ? "an " : "a ") + name
    }
    /// How its process comes to run.
    public var launch: LaunchModel
    /// What it shows at the run's end, for the final state's judgment.
    public var display: FinalDisplay
    /// Where its store lives unless `storage:` says.
    public var storage: StorageLocation
    /// The setting keys only some roles take, that this one takes (`reload-budget`, `between-pushes`, ...).
    public var settings: Set<SettingKey>
    /// The key of the work the system runs in its process (`on-reload`, `on-push`), if any.
    public var work: String?
    /// Words whose presence in a bundle identifier's last component suggests the role (history import).
    public var bundleHints: [String]

    init(name: String, launch: LaunchModel, display: FinalDisplay, storage: StorageLocation = .group,
         settings: Set<SettingKey> = [], work: String? = nil, bundleHints: [String] = []) {
        self.name = name
        self.launch = launch
        self.display = display
        self.storage = storage
        self.settings = settings
        self.work = work
        self.bundleHints = bundleHints
    }
}

/// How a role's process comes to run.
public enum LaunchModel: Sendable, Hashable {
    /// The scenario's steps launch, suspend, resume and end it.
    case steps
    /// The system launches or resumes it at each reload the named step asks for, and suspends it or lets
    /// it exit between reloads.
    case reloads(ReloadKind)
    /// The system launches it when a push arrives (`push`), and it exits or is suspended between pushes.
    case pushes
    /// It is performed, never started for itself: in the app's process, a widget's or control's, or a
    /// process of its own, through a context of its own.
    case performed

    /// The reloads that run it, for a role the system renders.
    public var reload: ReloadKind? {
        if case .reloads(let kind) = self { kind } else { nil }
    }
}

/// The kind of reload a step asks the system for.
public enum ReloadKind: String, Sendable, Hashable, CaseIterable {
    /// `reload-timelines`: WidgetKit's `reloadTimelines(ofKind:)` or `reloadAllTimelines()`, for widgets.
    case timelines = "reload-timelines"
    /// `reload-controls`: `ControlCenter.reloadControls(ofKind:)` or `reloadAllControls()`, for controls.
    case controls = "reload-controls"
}

/// What a role's process shows at the run's end.
public enum FinalDisplay: Sendable, Hashable {
    /// Nothing that outlives its work: an App Intent's process ends once `perform()` returns, and a
    /// notification service extension's pushes are judged at their steps.
    case nothing
    /// A screen: after a last refresh, what its contexts hold and its fetches would add.
    case screen
    /// A widget's timeline: the lists its last reload fetched, as it rendered them.
    case timeline
    /// A control's value: only the objects its last reloads read, as they rendered them.
    case value
}
