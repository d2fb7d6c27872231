import Basics
import Checkers
import Trace

/// What each process did in a run's workloads: reads (found or not), saves committed by operation,
/// conflicts by outcome, and failures by error kind; `nil` for a run without a workload.
enum WorkloadTable {
    struct Counts {
        var reads = 0, notFound = 0
        var saves = 0
        var operations: [ChangeOperation: Int] = [:]
        var conflicts: [ConflictOutcome: Int] = [:]
        var failures: [ErrorKind: Int] = [:]
        var total: Int { reads + saves + failures.values.reduce(0, +) }
    }

    static func counts(_ run: ReportedRun) -> [(String, Counts)]? {
        // Workload steps are control steps: the operations they drive carry no process of their own.
        let control = Set(run.info.steps.filter { $0.process == nil }.map(\.index))
        var byProcess: [String: Counts] = [:]
        var any = false
        for event in run.trace.events {
            let inWorkload = event.step.map(control.contains) ?? false
            switch event.kind {
            case .observed(let read) where read.workload:
                any = true
                byProcess[event.process, default: Counts()].reads += 1
                if !read.found { byProcess[event.process, default: Counts()].notFound += 1 }
            case .saveCommitted(let commit) where inWorkload:
                any = true
                byProcess[event.process, default: Counts()].saves += 1
                for object in commit.objects { byProcess[event.process, default: Counts()].operations[object.operation, default: 0] += 1 }
            case .conflict(let conflict) where inWorkload:
                byProcess[event.process, default: Counts()].conflicts[conflict.outcome, default: 0] += 1
            case .saveFailed(let error) where inWorkload, .error(let error) where inWorkload:
                any = true
                byProcess[event.process, default: Counts()].failures[error.kind, default: 0] += 1
            default:
                break
            }
        }
        guard any else { return nil }
        return run.info.processes.map(\.name).compactMap { name in byProcess[name].map { (name, $0) } }
    }

    static func render(_ run: ReportedRun) -> String {
        guard let rows = counts(run) else { return "" }
        var html = "<h2 id=\"workload\">Workload</h2>\n<table><thead><tr><th>process</th><th class=\"num\">operations</th><th class=\"num\">reads</th><th class=\"num\">not found</th><th class=\"num\">saves</th><th>objects saved</th><th>conflicts</th><th>failed</th></tr></thead><tbody>\n"
        func list<K: RawRepresentable & Hashable>(_ counts: [K: Int]) -> String where K.RawValue == String {
            counts.isEmpty ? "–" : counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        }
        for (name, c) in rows {
            html += "<tr><td>\(Escape.html(name))</td><td class=\"num\">\(c.total)</td><td class=\"num\">\(c.reads)</td><td class=\"num\">\(c.notFound)</td><td class=\"num\">\(c.saves)</td>"
            html += "<td>\(Escape.html(list(c.operations)))</td><td>\(Escape.html(list(c.conflicts)))</td><td>\(Escape.html(list(c.failures)))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }
}
