import Foundation

/// `testpeer agent --config <file>`: stands in for `groupsim agent` to test the runner's timeouts.
/// A process named `hang-at-launch` never says it is ready; any other says so and then never
/// answers a request.
func runFakeAgentPeer(_ arguments: [String]) -> Never {
    var process = ""
    if let index = arguments.firstIndex(of: "--config"), index + 1 < arguments.count,
       let data = FileManager.default.contents(atPath: arguments[index + 1]),
       let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
        process = object["process"] as? String ?? ""
    }
    if process != "hang-at-launch" {
        FileHandle.standardOutput.write(Data(#"{"seq":0,"status":"ready"}"#.utf8 + [0x0A]))
    }
    while true { sleep(60) }
}
