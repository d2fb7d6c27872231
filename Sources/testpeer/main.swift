// testpeer: a child process for tests that need a real process boundary.
// Usage: testpeer <area> <arguments...>
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let area = arguments.first else {
    FileHandle.standardError.write("usage: testpeer <area> ...\n".data(using: .utf8)!)
    exit(2)
}
switch area {
case "notify": runNotifyPeer(Array(arguments.dropFirst()))
case "supervisor": runSupervisorPeer(Array(arguments.dropFirst()))
case "agent": runFakeAgentPeer(Array(arguments.dropFirst()))
case "store": exit(StorePeer.run(Array(arguments.dropFirst())))
default:
    FileHandle.standardError.write("testpeer: unknown area \(area)\n".data(using: .utf8)!)
    exit(2)
}
