import Basics

/// Decoding `processes:`.
extension ScenarioDecoder {
    func decodeProcesses(_ node: YAMLNode) {
        guard let map = MappingReader(node, "the processes (each name mapped to its role and settings)", decoder)
        else { return }
        knowsProcesses = true
        if map.pairs.isEmpty {
            decoder.error("no process is declared; add one, like app: { role: host }.", at: node)
        }
        if map.pairs.count > Limits.processes {
            decoder.error("\(map.pairs.count) processes are declared; a scenario may have at most \(Limits.processes) (an app, its "
                + "extensions and a watch), each a real OS process.", at: map.pairs[Limits.processes].key)
        }
        for pair in map.pairs.prefix(Limits.processes) {
            guard let name = pair.key.scalar, checkProcessName(name, at: pair.key) else { continue }
            let location = decoder.location(of: pair.key)
            guard let settingsMap = MappingReader(pair.value, "the settings of process '\(name)'", decoder) else {
                // Keep the name so steps that use it are not reported again.
                processes.append(ProcessDeclaration(name: name, settings: ProcessSettings(role: .host), location: location))
                continue
            }
            let role = settingsMap.required("role", in: "process '\(name)'", example: "role: host")
                .flatMap { decoder.keyword($0, ProcessRole.self, "role") }
            let framework = settingsMap["framework"].flatMap { decoder.keyword($0, PersistenceFramework.self, "framework") }
            let settings = decodeSettings(settingsMap, of: name, allowingRole: true)
            let declared = ProcessSettings(role: role ?? .host, framework: framework ?? .coreData).applying(settings)
            if let role { checkRoleKeys(settingsMap, role: role, process: name) }
            settingsDecoder.refuseOtherFrameworksSettings(settingsMap, framework: framework ?? .coreData, process: name)
            processes.append(ProcessDeclaration(name: name, settings: declared, location: location))
        }
    }

    /// Keys that only some roles take: the widget settings, and each role's work (`on-reload:`,
    /// `on-push:`), whose nodes are kept to be decoded once the steps are (they may name the steps' objects).
    private func checkRoleKeys(_ map: MappingReader, role: ProcessRole, process: String) {
        settingsDecoder.refuseOtherRolesSettings(map, role: role, process: process)
        for pair in map.pairs {
            guard let key = pair.key.scalar, let owners = ProcessRole.workKeys[key] else { continue }
            guard owners.contains(role) else {
                let owner = owners.map(\.rawValue).joined(separator: " or ")
                decoder.error("\(key) is what \(owners.map(\.traits.aName).joined(separator: " or ")) does when the system runs "
                    + "it, and '\(process)' is \(role.traits.aName); remove it, or make the process role: \(owner).", at: pair.key)
                continue
            }
            pendingWork.append((process, key, pair.value))
            registerWorkInserts(pair.value)
        }
    }

    /// Decodes a process's settings (`SettingsDecoder`) with what the pass knows so far.
    func decodeSettings(_ map: MappingReader, of process: String, allowingRole: Bool) -> [ProcessSetting] {
        let scope = SettingsDecoder.Scope(model: model, modelVersions: modelVersions, processes: processes)
        return settingsDecoder.decode(map, of: process, allowingRole: allowingRole, in: scope, references: &references)
    }

    /// Checks a process name: a plain name that no control step or variant key uses.
    private func checkProcessName(_ name: String, at node: YAMLNode) -> Bool {
        // `limits` came after the contract: a process of that name keeps its name, and a variant's `limits:`
        // then overrides its settings (growth limits go at the top level).
        if ScenarioDecoder.controlKeywords.contains(name) || (ScenarioDecoder.variantKeys.contains(name) && name != "limits")
            || ScenarioDecoder.harnessNames.contains(name) {
            let reason = ScenarioDecoder.controlKeywords.contains(name) ? "it starts a control step"
                : ScenarioDecoder.harnessNames.contains(name) ? "the harness records its own events under it"
                : "variants use it as a key"
            decoder.error("'\(name)' cannot name a process because \(reason); choose another name, like \(name)-app.",
                          at: node)
            return false
        }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            decoder.error("the process name '\(name)' may hold only letters, digits, '-' and '_'; rename it.", at: node)
            return false
        }
        return true
    }

    /// The names of the declared processes, in order.
    var processNames: [String] { processes.map(\.name) }

    /// Checks that a node names a declared process (`ActionDecoder.processReference(_:_:)`).
    func processReference(_ node: YAMLNode, _ what: String) -> String? {
        actions.processReference(node, what)
    }
}
