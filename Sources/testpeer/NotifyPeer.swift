// testpeer notify: the other side of NotifyTests' cross-process checks.
//
//   testpeer notify observe-direct <dir> <name> <count>      observe, say "ready", print each delivery
//   testpeer notify post-direct <dir> <name>                 post once, say "posted <observers reached>"
//   testpeer notify observe-hub <hub.sock> <process> <name> <count>
//   testpeer notify post-hub <hub.sock> <process> <name>
//
// A delivery prints as `received <name> poster=<poster> own=<true|false> latency=<ns>`.
// Observers exit 0 after <count> deliveries, 3 if they do not arrive within 10 seconds.
import Foundation
import Notify

func runNotifyPeer(_ arguments: [String]) -> Never {
    do {
        switch (arguments.first, arguments.count) {
        case ("observe-direct", 4):
            let center = try DirectNotificationCenter(directory: arguments[1])
            observeAndReport(center, name: arguments[2], count: Int(arguments[3]) ?? 1)
        case ("post-direct", 3):
            let center = try DirectNotificationCenter(directory: arguments[1])
            let report = try center.postReporting(arguments[2])
            peerSay("posted \(report.delivered)")
            center.close()
            exit(0)
        case ("observe-hub", 5):
            let center = try HubNotificationCenter(hubSocketPath: arguments[1], process: arguments[2])
            observeAndReport(center, name: arguments[3], count: Int(arguments[4]) ?? 1)
        case ("post-hub", 4):
            let center = try HubNotificationCenter(hubSocketPath: arguments[1], process: arguments[2])
            try center.post(arguments[3])
            peerSay("posted")
            center.close()
            exit(0)
        default:
            peerFail("usage: testpeer notify observe-direct|post-direct|observe-hub|post-hub ...")
        }
    } catch {
        peerFail("testpeer notify: \(error)")
    }
}

private func observeAndReport(_ center: any DarwinNotificationCenter, name: String, count: Int) -> Never {
    let received = DispatchSemaphore(value: 0)
    do {
        _ = try center.addObserver(name) { delivery in
            peerSay("received \(delivery.name) poster=\(delivery.poster) own=\(delivery.isOwnPost) latency=\(delivery.latency)")
            received.signal()
        }
    } catch {
        peerFail("testpeer notify: \(error)")
    }
    peerSay("ready")
    for _ in 0..<count {
        if received.wait(timeout: .now() + 10) == .timedOut {
            peerSay("timeout")
            exit(3)
        }
    }
    center.close()
    exit(0)
}

/// Writes one line to stdout at once (unbuffered), so the parent sees it before the next step.
func peerSay(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes to stderr and exits with 2.
func peerFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}
