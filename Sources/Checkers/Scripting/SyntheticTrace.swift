import Basics
import Trace

/// A large, well-behaved trace for benchmarks and scale tests: four processes on one group store
/// saving, reading, counting, being notified and refreshing, with every read showing the latest
/// committed values (so a correct checker finds nothing but the deliberate stale reads).
public enum SyntheticTrace {
    /// About `events` events from `seed`; every `staleEvery`-th read (0: none) shows the previous value.
    public static func generate(events target: Int, seed: UInt64 = 1, keys: Int = 1_000, staleEvery: Int = 0) -> RunTrace {
        var random = SeededRandom(seed: seed)
        let processes = ["app", "share", "action", "watch"]
        var script = TraceScript(
            processes: [("app", .host), ("share", .share), ("action", .action), ("watch", .watch)],
            scenario: "synthetic", variant: "bench", summary: "Synthetic load for the checkers' benchmark.",
            seed: seed, expected: .pass)
        let workload = script.step(nil, "workload: app, share, action, watch", line: 1)
        for process in processes { script.use(step: workload, for: process) }

        struct Row { var version: Int64; var title: String; var previous: String }
        var rows: [String: Row] = [:]
        var live: [String] = []
        var liveIndex: [String: Int] = [:]
        var nextKey = 0
        var reads = 0
        func remove(_ id: String) {
            let index = liveIndex.removeValue(forKey: id)!
            let last = live.removeLast()
            if last != id { live[index] = last; liveIndex[last] = index }
        }

        while script.events.count < target {
            script.advance(nanos: 20_000 + random.next(below: 40_000))
            let process = processes[Int(random.next(below: UInt64(processes.count)))]
            let roll = random.next(below: 100)
            if roll < 15 || live.isEmpty {
                // A save: insert a new key while there is room, else update (or now and then delete).
                if live.count < keys && (live.isEmpty || roll % 3 == 0) {
                    nextKey += 1
                    let id = "k\(nextKey)"
                    let title = "t\(random.next(below: 1_000_000))"
                    rows[id] = Row(version: 1, title: title, previous: title)
                    liveIndex[id] = live.count
                    live.append(id)
                    script.insert(process, id, ["title": .string(title), "rank": .int(Int64(nextKey))])
                } else {
                    let id = live[Int(random.next(below: UInt64(live.count)))]
                    var row = rows[id]!
                    if roll == 1 {
                        remove(id)
                        script.delete(process, id, version: row.version + 1)
                        rows[id] = nil
                    } else {
                        row.previous = row.title
                        row.title = "t\(random.next(below: 1_000_000))"
                        row.version += 1
                        rows[id] = row
                        script.update(process, id, ["title": .string(row.title)], version: row.version)
                    }
                }
                for other in processes where other != process {
                    script.notifyReceived(other)
                }
            } else if roll < 20 {
                script.refreshStarted(process)
                script.advance(nanos: 5_000)
                script.refreshEnded(process)
            } else if roll == 20 && random.next(below: 20) == 0 {
                script.count(process, ids: live)
            } else {
                let id = live[Int(random.next(below: UInt64(live.count)))]
                let row = rows[id]!
                reads += 1
                let stale = staleEvery > 0 && reads % staleEvery == 0 && row.version > 1
                script.read(
                    process, id, ["title": .string(stale ? row.previous : row.title)], version: stale ? row.version - 1 : row.version,
                    source: .cache, final: roll % 2 == 0, workload: roll % 2 == 1)
            }
        }
        return script.trace
    }
}

