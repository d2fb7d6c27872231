import Basics
import ScenarioModel

/// One-line renderings of steps for the trace, the reports and error messages.
enum StepText {
    static func render(_ step: ScenarioStep) -> String {
        let body = render(step.step)
        var text = step.process.map { "\($0): \(body)" } ?? body
        if let context = step.context { text += " in context \(context)" }
        if let error = step.expectError { text += " expect-error \(error.rawValue)" }
        return text
    }

    static func render(_ step: Step) -> String {
        switch step {
        case .launch: return "launch"
        case .exit: return "exit"
        case .crash: return "crash"
        case .background: return "background"
        case .suspend: return "suspend"
        case .resume: return "resume"
        case .foreground: return "foreground"
        case .terminate: return "terminate"
        case .observe: return "observe"
        case .deliver: return "deliver"
        case .push: return "push"
        case .reloadTimelines(let widget): return "reload-timelines" + (widget.map { " of \($0)" } ?? "")
        case .reloadControls(let control): return "reload-controls" + (control.map { " of \($0)" } ?? "")
        case .reload(let step, false): return "reload (requested at step \(step))"
        case .reload(_, true): return "reload (its timeline's reload policy asked for it)"
        case .autosave(let step): return "autosave (changes since step \(step))"
        case .restoreStore(let name): return "restore-store from \(name)"
        case .appUpdate(let version): return "app-update to \(version)"
        case .insert(let entity, let id, let values): return "insert \(entity) \(id) \(render(values))"
        case .update(let id, let values): return "update \(id) \(render(values))"
        case .delete(let id): return "delete \(id)"
        case .toggle(let id, let property, let reads):
            return "toggle \(id).\(property)" + (reads == .control ? " (the opposite of what the control shows)" : "")
        case .relate(let id, let to, let via, let at): return "relate \(id) to \(to) via \(via)" + (at.map { " at \($0)" } ?? "")
        case .unrelate(let id, let from, let via): return "unrelate \(id) from \(from) via \(via)"
        case .save: return "save"
        case .rollback: return "rollback"
        case .reset: return "reset"
        case .fetch(let entity, let predicate, let sort, let options):
            var text = "fetch \(entity)"
            if let predicate { text += " where \(predicate.description)" }
            if !sort.isEmpty { text += " sort \(sort.map(\.description).joined(separator: ","))" }
            if let limit = options.limit { text += " limit \(limit)" }
            if !options.includesPendingChanges { text += " without pending changes" }
            if !options.returnsObjectsAsFaults { text += " filled" }
            return text
        case .refreshAll: return "refresh"
        case .refresh(let id, let merge): return "refresh \(id) merge \(merge)"
        case .runRefresh: return "run-refresh"
        case .batchInsert(let entity, let count, _): return "batch-insert \(count) \(entity)"
        case .batchUpdate(let entity, _, let values): return "batch-update \(entity) \(render(values))"
        case .batchDelete(let entity, let predicate): return "batch-delete \(entity)" + (predicate.map { " where \($0.description)" } ?? "")
        case .pinGeneration(let source): return "pin-generation" + (source.map { " from \($0)" } ?? "")
        case .unpinGeneration: return "unpin-generation"
        case .beginWrite: return "begin-write"
        case .endWrite: return "end-write"
        case .mergeHistory: return "merge-history"
        case .purgeHistory(let policy, let expected):
            return "purge-history" + (policy.map { " \($0)" } ?? "") + (expected.map { " expect {deleted: \($0)}" } ?? "")
        case .post(let name): return "post \(name)"
        case .checkpoint: return "checkpoint"
        case .copyStore(let name, let withWAL): return "copy-store \(name)" + (withWAL ? "" : " without -wal")
        case .openCopy(let name): return "open-copy \(name)"
        case .sync: return "sync"
        case .leech: return "leech"
        case .read(let id, let expectation, let timing):
            var text = "read \(id)"
            switch expectation {
            case .values(let values, let related):
                text += " expect \(render(values))"
                if !related.isEmpty {
                    text.removeLast()
                    text += (values.isEmpty ? "" : ", ") + related.keys.sorted().map { "\($0): [\(related[$0]!.joined(separator: ", "))]" }.joined(separator: ", ") + "}"
                }
            case .absent: text += " expect absent"
            case nil: break
            }
            return text + render(timing)
        case .count(let entity, let expected, let predicate, let timing):
            return "count \(entity)" + (predicate.map { " where \($0.description)" } ?? "") + " expect \(expected)" + render(timing)
        case .results(let controller, let expectation, let timing):
            var text = "results \(controller)"
            if let objects = expectation.objects { text += " expect [\(objects.joined(separator: ", "))]" }
            if let sections = expectation.sections {
                text += " expect {" + sections.map { "\($0.name): [\($0.objects.joined(separator: ", "))]" }.joined(separator: ", ") + "}"
            }
            if let changes = expectation.changes { text += " changes \(changes)" }
            return text + render(timing)
        case .state(let id, let expectation, let timing):
            let flags = [("fault", expectation.fault), ("deleted", expectation.deleted), ("registered", expectation.registered)]
                .compactMap { key, flag in flag.map { "\(key): \($0)" } }
            return "state \(id) expect {\(flags.joined(separator: ", "))}" + render(timing)
        case .sleep(let duration): return "sleep \(duration)"
        case .parallel(let steps): return "parallel (\(steps.count) steps)"
        case .sequence(let steps): return "sequence (\(steps.count) steps)"
        case .advanceClock(let duration): return "clock advance \(duration)"
        case .workload(let workload):
            return "workload \(workload.entity) on \(workload.processes.joined(separator: ", ")) for \(workload.duration)"
        case .fault(let fault):
            switch fault {
            case .dropNotifications(let process, let duration): return "fault: drop notifications to \(process) for \(duration)"
            case .delayNotifications(let process, let delay): return "fault: delay notifications to \(process) by \(delay)"
            case .crash(let process, let point): return "fault: crash \(process) during \(point.rawValue)"
            case .holdNotifications(let process): return "fault: hold notifications to \(process)"
            }
        }
    }

    private static func render(_ values: [String: Value]) -> String {
        "{" + values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", ") + "}"
    }

    private static func render(_ timing: CheckTiming) -> String {
        switch timing {
        case .now: return " now"
        case .within(let duration): return " within \(duration)"
        }
    }
}
