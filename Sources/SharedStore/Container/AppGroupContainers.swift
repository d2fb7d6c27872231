import Foundation

/// The app-group containers of one simulated device: each registered group identifier resolves to its
/// own directory under `root` (the `containerURL(forSecurityApplicationGroupIdentifier:)` analogue).
///
/// The caller registers the groups that exist, as entitlements would; asking for another is an error.
/// ```swift
/// let containers = AppGroupContainers(root: sandbox, groups: ["group.example.notes"])
/// let url = try containers.storeURL(group: "group.example.notes", name: "Notes")  // .../Notes.sqlite
/// ```
public struct AppGroupContainers: Sendable {
    /// The directory under which every group's container lives.
    public let root: URL
    /// The registered group identifiers.
    public private(set) var groups: Set<String>

    /// Creates the containers under `root`, with `groups` registered.
    public init(root: URL, groups: [String] = []) {
        self.root = root
        self.groups = Set(groups)
    }

    /// Registers a group identifier (an entitlement).
    public mutating func register(_ group: String) {
        groups.insert(group)
    }

    /// The container directory of `group`, created when missing.
    /// - Throws: `ContainerError.unknownGroup` when the group is not registered; `.cannotCreate` when the
    ///   directory cannot be made.
    public func containerURL(forSecurityApplicationGroupIdentifier group: String) throws(ContainerError) -> URL {
        guard groups.contains(group) else {
            throw .unknownGroup(group, registered: groups.sorted())
        }
        let safe = group.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" }
        let url = root.appendingPathComponent(String(safe), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreate(url.path, reason: "\(error)")
        }
        return url
    }

    /// The store file `<container>/<name>.sqlite` of `group`.
    public func storeURL(group: String, name: String) throws(ContainerError) -> URL {
        try containerURL(forSecurityApplicationGroupIdentifier: group).appendingPathComponent("\(name).sqlite")
    }
}

/// A container that cannot be resolved.
public enum ContainerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The group identifier is not registered (the process lacks the entitlement).
    case unknownGroup(String, registered: [String])
    /// The container directory could not be created.
    case cannotCreate(String, reason: String)

    public var description: String {
        switch self {
        case .unknownGroup(let group, let registered):
            "unknown app group `\(group)` (registered: \(registered.isEmpty ? "none" : registered.joined(separator: ", ")))"
        case .cannotCreate(let path, let reason):
            "cannot create the container directory \(path): \(reason)"
        }
    }
}
