import Basics

/// The settings a process of another role or framework takes, refused where a process declares them or a
/// variant overrides them.
extension SettingsDecoder {
    /// Settings only other roles take (the widget's, the notification service extension's, the App
    /// Intent's, and `model` on an intent), refused where a process declares them or a variant overrides them.
    func refuseOtherRolesSettings(_ map: MappingReader, role: ProcessRole, process: String) {
        for pair in map.pairs {
            guard let key = pair.key.scalar else { continue }
            if key == "model", role.isPerformed { decoder.refuseIntentModel(process, at: pair.key) }
            guard let owners = SettingKey(rawValue: key).flatMap({ ProcessRole.roleSettings[$0] }), !owners.contains(role) else { continue }
            if role.isRenderedBySystem, owners.contains(where: \.isRenderedBySystem) {
                // A widget's timeline settings on a control.
                decoder.error("\(key) is a widget's setting, and '\(process)' is \(role.traits.aName), which has no timeline and no "
                    + "documented reload budget: the system reloads it when reload-controls asks and after its action runs; "
                    + "remove it.", at: pair.key)
            } else {
                let takers = owners.map { "\($0.traits.aName)'s" }.joined(separator: " or ")
                decoder.error("\(key) is \(takers) setting, and '\(process)' is \(role.traits.aName); remove it, or make the "
                    + "process role: \(owners.map(\.rawValue).joined(separator: " or ")).", at: pair.key)
            }
        }
    }

    /// Settings only the other framework takes (SwiftData's autosave; Core Data's refresh APIs, which
    /// SwiftData does not expose), and refresh strategies it cannot use, refused where a process declares
    /// them or a variant overrides them.
    func refuseOtherFrameworksSettings(_ map: MappingReader, framework: PersistenceFramework, process: String) {
        let other: PersistenceFramework = framework == .coreData ? .swiftData : .coreData
        for pair in map.pairs {
            guard let key = pair.key.scalar else { continue }
            if SettingKey(rawValue: key)?.onlyFor == other {
                decoder.error("\(key) is a \(other.displayName) setting, and '\(process)' uses \(framework.displayName); remove it, "
                    + "or give the process framework: \(other.rawValue).", at: pair.key)
            }
            if key == "refresh", let word = pair.value.scalar, let strategy = RefreshStrategy(rawValue: word),
               !strategy.isAvailable(in: framework) {
                let usable = RefreshStrategy.allCases.filter { $0.isAvailable(in: framework) }.map(\.rawValue)
                decoder.error("refresh: \(word) is a \(other.displayName) strategy, and '\(process)' uses \(framework.displayName), "
                    + "whose strategies are \(Suggestion.list(usable)).", at: pair.value)
            }
            if key == "contexts", framework == .swiftData, let entries = pair.value.pairs {
                for entry in entries {
                    for field in entry.value.pairs ?? [] {
                        guard let name = field.key.scalar else { continue }
                        if name == "parent", field.value.scalar != "store" {
                            decoder.error("SwiftData has no child contexts: '\(process)' uses SwiftData, so its context "
                                + "'\(entry.key.scalar ?? "")' is a ModelContext of the container (remove its parent:).", at: field.key)
                        } else if SettingKey(rawValue: name)?.onlyFor == .coreData {
                            decoder.error("\(name) is a Core Data setting, and '\(process)' uses SwiftData, whose ModelContext "
                                + "has no such property; remove it from the context '\(entry.key.scalar ?? "")'.", at: field.key)
                        }
                    }
                }
            }
        }
    }
}
