import Basics

/// The names a scenario file uses before, or apart from, where they are declared: a widget a button names,
/// the controller a `results` check names, an author `history-authors` lists. They are gathered while the
/// sections are decoded and checked once every section is, so the order of a file's sections never
/// decides whether a name is known.
struct CrossReferences {
    /// `widget-button:` values: each names a widget.
    var widgetButtons: [(name: String, node: YAMLNode)] = []
    /// `control:` values: each names a control.
    var controls: [(name: String, node: YAMLNode)] = []
    /// `toggle` steps that negate what a control shows: the control's `on-reload:` reads the object, or it
    /// shows no value of it.
    var toggles: [(control: String, id: String, node: YAMLNode)] = []
    /// `runs-in: app` values: the file declares an app.
    var appIntents: [YAMLNode] = []
    /// The fetched-results controllers some fetch makes (`controller:`), and the `results` checks that name one.
    var fetchedResultsControllers: Set<String> = []
    var controllerChecks: [(name: String, node: YAMLNode)] = []
    /// The contexts each process's steps run through (`context:`, as `[process, context]`), and the
    /// contexts `pin-generation` takes a token from: each is `view`, declared, or one of those.
    var usedContexts: Set<[String]> = []
    var generationSources: [(process: String, name: String, node: YAMLNode)] = []
    /// Every author name written with `history-authors`, and every one written with `author:`.
    var historyAuthors: [(name: String, node: YAMLNode)] = []
    var declaredAuthors: Set<String> = []

    /// Checks what the processes' declarations name (authors, widgets, controls, the app), once every
    /// process is declared; authors only when the `processes` section could be read (`knowsAll`).
    func checkDeclarations(of processes: [ProcessDeclaration], knowsAll: Bool, into decoder: NodeDecoder) {
        if knowsAll { checkHistoryAuthors(processes, decoder) }
        checkWidgetButtons(processes, decoder)
        checkAppIntents(processes, decoder)
    }

    /// Checks what the steps name (a control's reads, controllers, contexts), once every process's work is
    /// decoded too.
    func checkUses(by processes: [ProcessDeclaration], into decoder: NodeDecoder) {
        checkControlToggles(processes, decoder)
        checkControllerNames(decoder)
        checkGenerationSources(processes, decoder)
    }

    /// Every `history-authors` name is an author some process writes.
    private func checkHistoryAuthors(_ processes: [ProcessDeclaration], _ decoder: NodeDecoder) {
        let authors = Set(processes.map(\.name)).union(declaredAuthors)
        for reference in historyAuthors where !authors.contains(reference.name) {
            decoder.error("no process writes the author '\(reference.name)'"
                + Suggestion.hint(for: reference.name, in: authors.sorted(), listing: false)
                + " Authors are process names unless a process sets author:.", at: reference.node)
        }
    }

    /// Each context `pin-generation` takes a token from is one of the process's: a context it declares in
    /// `contexts:` or whose steps run through (a misspelt name would be an unpinned new context, whose token is
    /// nil and unpins).
    private func checkGenerationSources(_ processes: [ProcessDeclaration], _ decoder: NodeDecoder) {
        for (process, name, node) in generationSources {
            let declared = processes.first { $0.name == process }?.settings.contexts.map(\.name) ?? []
            guard !declared.contains(name), !usedContexts.contains([process, name]) else { continue }
            let known = declared + usedContexts.filter { $0[0] == process }.map { $0[1] }
            decoder.error("pin-generation takes the token of '\(name)', which is no context of \(process)" + Suggestion.hint(
                for: name, in: ["view"] + known,
                otherwise: "name view, or a context the process declares in contexts: or runs steps through with context:."), at: node)
        }
    }

    /// Each `results` check names a controller some fetch of the file makes.
    private func checkControllerNames(_ decoder: NodeDecoder) {
        let known = fetchedResultsControllers.sorted()
        for (name, node) in controllerChecks where !fetchedResultsControllers.contains(name) {
            decoder.error("results names '\(name)', which no fetch makes" + Suggestion.hint(
                for: name, in: known, otherwise: "make it with a fetch, like { fetch: Note, sort: title, controller: \(name) }."), at: node)
        }
    }

    /// `runs-in: app` performs an intent in the app's process: the file must declare one.
    private func checkAppIntents(_ processes: [ProcessDeclaration], _ decoder: NodeDecoder) {
        guard !processes.contains(where: { $0.settings.role == .host }) else { return }
        for node in appIntents {
            decoder.error("runs-in: app performs the intent in the app's process, and no process is role: host; declare "
                + "the app, or leave runs-in out (an App Intents extension's process performs it).", at: node)
        }
    }

    /// A toggle that negates what a control shows needs the control to show the object: its `on-reload:`
    /// work reads it (as a `ControlValueProvider` reads the value it returns).
    private func checkControlToggles(_ processes: [ProcessDeclaration], _ decoder: NodeDecoder) {
        for (control, id, node) in toggles {
            guard let declared = processes.first(where: { $0.name == control }), declared.settings.role == .control else { continue }
            let reads = declared.allWork.contains { step in
                if case .read(id, _, _) = step.step { return true }
                return false
            }
            guard !reads else { continue }
            decoder.error("the toggle negates what \(control) shows of \(id), and \(control)'s on-reload: never reads \(id); "
                + "add { read: \(id) } to its on-reload:, as its value provider reads the value it shows.", at: node)
        }
    }

    /// Each `widget-button:` names a declared widget, each `control:` a declared control.
    private func checkWidgetButtons(_ processes: [ProcessDeclaration], _ decoder: NodeDecoder) {
        for (key, role, pending) in [("widget-button", ProcessRole.widget, widgetButtons), ("control", .control, controls)] {
            let named = processes.filter { $0.settings.role == role }.map(\.name)
            let what = role == .widget ? "the widget whose button runs the intent" : "the control whose tap runs the intent"
            for (name, node) in pending where !named.contains(name) {
                let other = processes.first { $0.name == name }?.settings.role
                decoder.error(other.map { "\(key) names '\(name)', \($0.traits.aName); it names \(what)." }
                    ?? "\(key) names an unknown \(role.rawValue) '\(name)'" + Suggestion.hint(
                        for: name, in: named, otherwise: named.isEmpty ? "declare a process with role: \(role.rawValue)."
                            : "declare it, or use one of \(Suggestion.list(named))."),
                    at: node)
            }
        }
        for (name, node) in controls {
            guard let intent = processes.first(where: { $0.settings.control == name && $0.settings.widgetButton != nil }) else { continue }
            decoder.error("'\(intent.name)' names both a widget (widget-button) and a control whose tap runs it; an intent "
                + "is one of them, so keep one.", at: node)
        }
    }
}
