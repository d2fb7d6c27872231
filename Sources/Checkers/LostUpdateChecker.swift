import Trace

/// Finds `lost-update`: a save that replaced a newer committed value of a property.
///
/// For an update based on version `b` of an object whose latest committed version is newer, each
/// written property whose last change (the newest commit that gave it another value than the commit
/// before: a commit writes every value of its row, changed or not) came after `b` and differs from the
/// value written is
///   - a lost update when this process never set the property (`changed`): it wrote back what it had
///     read, reverting the newer value (Core Data's `overwrite` policy does this);
///   - a lost update when it did set it but no conflict was detected for the object in this save
///     (a blind overwrite);
///   - not a lost update when a conflict was detected and resolved (object-trump keeping this
///     process's value for a property it set is the policy working as documented).
///
/// Runs while the oracle is built, in commit order: call `willCommit` before the commit is applied.
struct LostUpdateChecker {
    let context: RunContext

    init(context: RunContext) {
        self.context = context
    }

    /// Judges `event` against the commits before it in its store; call before `oracle.apply(event)`.
    func willCommit(_ event: CommitEvent, oracle: CommitOracle, into anomalies: inout [Anomaly]) {
        let commit = event.commit, process = event.writer, t = event.end
        for object in commit.objects where object.operation == .update {
            guard let base = object.baseVersion,
                  let history = oracle.history(store: commit.store, object: object.id),
                  let latest = history.latest, latest.operation != .delete, latest.version > base else { continue }
            // Traces that predate `conflicted` say only that some conflict was resolved.
            let detected = commit.conflicted.map { $0.contains(object.id) } ?? commit.conflictResolved
            let changed = Set(object.changed)
            for property in object.values.keys.sorted() {
                guard let value = object.values[property], let newest = history.property(property)?.lastChange,
                      newest.version > base, !newest.value.matches(value) else { continue }
                let name = "\(object.id).\(property)"
                let explanation: String
                if !changed.contains(property) {
                    explanation = "\(process) saved \(name) = \(value) at \(context.at(t)), reverting \(newest.value) that \(newest.writer) committed at \(context.at(newest.end)) (version \(newest.version)): \(process) never set \(property); its change was based on version \(base)."
                } else if !detected {
                    explanation = "\(process) saved \(name) = \(value) at \(context.at(t)) over \(newest.value) that \(newest.writer) committed at \(context.at(newest.end)) (version \(newest.version)), though its change was based on version \(base) and no conflict was detected."
                } else {
                    continue
                }
                anomalies.append(context.anomaly(
                    .lostUpdate, process: process, step: event.step, t: t, object: object.id, property: property,
                    seen: "\(value)", expected: "\(newest.value) (version \(newest.version))", cause: newest.reference,
                    explanation: explanation))
            }
        }
    }
}
