import Agent
import Basics
import Foundation
import ScenarioModel

/// The cost of one step's messages (its request and reply, each encoded and decoded once) with
/// `AgentWire` and, for comparison, with Foundation's JSON coders, measured in this process.
enum MessageBench {
    struct Result {
        var wireNanos: Double
        var foundationNanos: Double
    }

    static func measure(rounds: Int = 2_000) throws -> Result {
        var request = AgentRequest(seq: 12, step: 11, ids: ["n1": ObjectRef(entity: "Note", pk: 1), "n2": ObjectRef(entity: "Note", pk: 2)],
                                   command: .perform(.read(id: "n1", expectation: .values(["title": .string("B")]), timing: .within(.seconds(1)))))
        request.virtualTime = 123_456_789
        request.notifications = [DeliveredNotification(name: "com.example.changed", poster: "share", postedAt: 123_000_000)]
        var reply = AgentReply(seq: 12, status: .ok, inserted: ["n3": ObjectRef(entity: "Note", pk: 3)])
        reply.virtualEnd = 125_000_000
        reply.notifications = NotificationActivity(posts: [PostedNotification(name: "com.example.changed", at: 124_000_000)])
        reply.matched = true
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = MonotonicClock.now()
            for _ in 0..<rounds { try body() }
            return Double(MonotonicClock.now() - start) / Double(rounds)
        }
        let wire = try time {
            _ = try AgentWire.decode(AgentRequest.self, from: AgentWire.line(request))
            _ = try AgentWire.decode(AgentReply.self, from: AgentWire.line(reply))
        }
        let foundation = try time {
            _ = try JSONDecoder().decode(AgentRequest.self, from: JSONEncoder().encode(request))
            _ = try JSONDecoder().decode(AgentReply.self, from: JSONEncoder().encode(reply))
        }
        return Result(wireNanos: wire, foundationNanos: foundation)
    }
}
