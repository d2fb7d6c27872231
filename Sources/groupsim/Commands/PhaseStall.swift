import Basics
import Foundation

/// A seam for the tests of interruption: with `GROUPSIM_STALL_IN=checking` (or `reporting`) in its
/// environment, `groupsim run` says so on stderr when it reaches that phase and then keeps its CPU busy
/// for 30 s without looking for a signal, as a long trace's checking or a large suite's report writing
/// would. A signal must still end the invocation within a second (`ProcessGuard`'s grace). Without the
/// variable it does nothing.
enum PhaseStall {
    enum Phase: String {
        case checking, reporting
    }

    static func point(_ phase: Phase) {
        guard ProcessInfo.processInfo.environment["GROUPSIM_STALL_IN"] == phase.rawValue else { return }
        printError("groupsim: stalling in \(phase.rawValue) (GROUPSIM_STALL_IN)")
        let end = Date().addingTimeInterval(30)
        var spins: UInt64 = 0
        while Date() < end { spins &+= 1 }
        if spins == 0 { printError("") }
    }
}
