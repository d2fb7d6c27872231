/// What `explore` may do to a scenario besides choosing delivery points and interleavings (`explore:`):
/// which processes it may suspend (and resume later), send to the background (and bring back), crash
/// or terminate (and launch again before their next step), and whose notifications it may drop or
/// delay for a while. A file without `explore:` varies delivery points and interleavings only.
public struct ExploreSpace: Sendable, Hashable, Codable {
    public var suspend: [String] = []
    public var background: [String] = []
    public var crash: [String] = []
    public var terminate: [String] = []
    public var dropNotifications: [String] = []
    public var delayNotifications: [String] = []

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
    public static let keys = ["suspend", "background", "crash", "terminate", "drop-notifications", "delay-notifications"]

    /// Whether the file allows no perturbation.
    public var isEmpty: Bool {
        suspend.isEmpty && background.isEmpty && crash.isEmpty && terminate.isEmpty
            && dropNotifications.isEmpty && delayNotifications.isEmpty
    }
}
