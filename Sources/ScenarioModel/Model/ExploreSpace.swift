/// What `explore` may do to a scenario besides choosing delivery points and interleavings (`explore:`):
/// which processes it may suspend (and resume later), send to the background (and bring back), crash
/// or terminate (and launch again before their next step), and whose notifications it may drop or
/// delay for a while; and past how many of the receiver's steps a notification may arrive
/// (`late-notifications`). A file without `explore:` varies delivery points, late notifications (up to
/// `defaultLateNotifications` steps) and interleavings only.
public struct ExploreSpace: Sendable, Hashable, Codable {
    public var suspend: [String] = []
    public var background: [String] = []
    public var crash: [String] = []
    public var terminate: [String] = []
    public var dropNotifications: [String] = []
    public var delayNotifications: [String] = []
    /// How many of its own steps a process may take before a notification posted to it is handled:
    /// 0 for never (each is handled before the receiver's next step at the latest, as in `run`).
    public var lateNotifications: Int = ExploreSpace.defaultLateNotifications

    /// The bound of late notifications when a file gives none.
    public static let defaultLateNotifications = 2
    /// The largest bound a file may give.
    public static let maximumLateNotifications = 16

    public init(suspend: [String] = [], background: [String] = [], crash: [String] = [], terminate: [String] = [],
                dropNotifications: [String] = [], delayNotifications: [String] = []) {
        self.suspend = suspend
        self.background = background
        self.crash = crash
        self.terminate = terminate
        self.dropNotifications = dropNotifications
        self.delayNotifications = delayNotifications
    }

    /// The keys of `explore:`, as files write them.
    public static let keys = ["suspend", "background", "crash", "terminate", "drop-notifications", "delay-notifications",
                              "late-notifications"]

    /// Whether the file allows no perturbation (late notifications are not one: they insert no step).
    public var isEmpty: Bool {
        suspend.isEmpty && background.isEmpty && crash.isEmpty && terminate.isEmpty
            && dropNotifications.isEmpty && delayNotifications.isEmpty
    }
}
