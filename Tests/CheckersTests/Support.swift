import Basics
import Checkers
import Trace

/// Two processes on one group store, the shape most tests need.
func hostAndShare(expected: Expectation = .pass) -> TraceScript {
    TraceScript(processes: [("app", .host), ("share", .share)], expected: expected)
}

/// Host `app` inserted n1 (title A, version 1) at 10 ms and read it back; nothing else yet.
func hostShowingN1(expected: Expectation = .pass) -> TraceScript {
    var script = hostAndShare(expected: expected)
    script.at(ms: 10)
    script.step("app", "app: insert Note n1 set {title: A}; save", line: 10)
    script.insert("app", "n1", ["title": .string("A"), "rank": .int(1)])
    script.at(ms: 20)
    script.step("app", "app: read n1 now", line: 12)
    script.read("app", "n1", ["title": .string("A"), "rank": .int(1)], version: 1, source: .sql)
    return script
}

/// `hostShowingN1`, then share commits title B at 100 ms and app's check of B within 200 ms fails at
/// 300 ms on a stale read of A: the stale read explains the failed check.
func checkFailedOnAStaleRead() -> TraceScript {
    var script = hostShowingN1()
    script.at(ms: 100)
    script.update("share", "n1", ["title": .string("B")], version: 2)
    script.at(ms: 300)
    script.step("app", "app: read n1 expect {title: B} within 200ms", line: 22)
    script.read("app", "n1", ["title": .string("A")], version: 1, source: .cache)
    script.checkRead("app", "n1", expected: ["title": .string("B")], actual: ["title": .string("A")], withinMs: 200)
    return script
}

func kinds(_ result: CheckResult) -> [AnomalyKind] { result.anomalies.map(\.kind) }

func check(_ script: TraceScript) -> CheckResult { TraceChecker.check(script.trace) }
