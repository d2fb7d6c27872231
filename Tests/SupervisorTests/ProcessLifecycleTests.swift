import Basics
import Supervisor
import Testing

@Suite struct ProcessLifecycleTests {
    @Test func launchSpawnsAfterTellingTheHubThenReadyMakesItActive() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        #expect(try app.handle(.launch) == [.notifyHub(.launching), .spawn])
        #expect(app.state == .launching)
        #expect(try app.handle(.ready) == [.notifyHub(.active)])
        #expect(app.state == .active)
    }

    @Test func aStoreThatDoesNotLoadEndsTheLaunchAsACrashThatCanBeLaunchedAgain() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        #expect(try app.handle(.storeLoadFailed) == [.notifyHub(.crashed)])
        #expect(app.state == .crashed)
        #expect(throws: LifecycleError.self) { try app.handle(.storeLoadFailed) }
        #expect(try app.handle(.launch) == [.notifyHub(.launching), .spawn])
    }

    @Test func aProcessStillWaitingForItsStoreExitsWithoutAnAgentToAsk() throws {
        var share = ProcessLifecycle(process: "share", role: .share)
        _ = try share.handle(.launch)
        #expect(try share.handle(.exit) == [.notifyHub(.exited)])
        #expect(share.state == .exited)
    }

    @Test func hostGoesThroughBackgroundSuspensionAndBack() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        _ = try app.handle(.ready)
        #expect(try app.handle(.background) == [.notifyHub(.background)])
        #expect(try app.handle(.suspend) == [.notifyHub(.suspended), .sendSignal(.stop)])
        #expect(try app.handle(.resume) == [.sendSignal(.continue), .notifyHub(.background)])
        #expect(app.state == .background)
        #expect(try app.handle(.foreground) == [.notifyHub(.active), .runRefreshOnActivation])
        #expect(try app.handle(.suspend) == [.notifyHub(.suspended), .sendSignal(.stop)])
        #expect(try app.handle(.resume) == [.sendSignal(.continue), .notifyHub(.active), .runRefreshOnActivation])
        #expect(app.state == .active)
    }

    @Test func foregroundFromSuspendedContinuesTheProcessFirst() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        _ = try app.handle(.ready)
        _ = try app.handle(.background)
        _ = try app.handle(.suspend)
        #expect(try app.handle(.foreground) == [.sendSignal(.continue), .notifyHub(.active), .runRefreshOnActivation])
    }

    @Test func terminatedHostCanBeLaunchedAgain() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        _ = try app.handle(.ready)
        _ = try app.handle(.suspend)
        #expect(try app.handle(.terminate) == [.notifyHub(.terminated), .sendSignal(.kill)])
        #expect(try app.handle(.childExited(.killed(signal: 9))) == [])
        #expect(app.state == .terminated)
        #expect(try app.handle(.launch) == [.notifyHub(.launching), .spawn])
    }

    @Test func shareExitsCleanlyAndIsLaunchedAgain() throws {
        var share = ProcessLifecycle(process: "share", role: .share)
        _ = try share.handle(.launch)
        _ = try share.handle(.ready)
        #expect(try share.handle(.exit) == [.notifyHub(.exited), .sendExitRequest])
        #expect(try share.handle(.childExited(.exited(code: 0))) == [])
        #expect(share.state == .exited)
        #expect(try share.handle(.launch) == [.notifyHub(.launching), .spawn])
    }

    @Test func crashKillsEvenWhileLaunching() throws {
        var share = ProcessLifecycle(process: "share", role: .share)
        _ = try share.handle(.launch)
        #expect(try share.handle(.crash) == [.notifyHub(.crashed), .sendSignal(.kill)])
        #expect(share.state == .crashed)
    }

    @Test func unexpectedExitIsReportedAndEndsTheProcess() throws {
        var watch = ProcessLifecycle(process: "watch", role: .watch)
        _ = try watch.handle(.launch)
        _ = try watch.handle(.ready)
        let segfault = ProcessExit.killed(signal: 11)
        #expect(try watch.handle(.childExited(segfault)) == [.notifyHub(.crashed), .reportUnexpectedExit(segfault)])
        #expect(watch.state == .crashed)

        var share = ProcessLifecycle(process: "share", role: .share)
        _ = try share.handle(.launch)
        _ = try share.handle(.ready)
        let clean = ProcessExit.exited(code: 0)
        #expect(try share.handle(.childExited(clean)) == [.notifyHub(.exited), .reportUnexpectedExit(clean)])
        #expect(share.state == .exited)
    }

    @Test func askingForTheCurrentStateDoesNothing() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        _ = try app.handle(.ready)
        #expect(try app.handle(.foreground) == [])
        #expect(try app.handle(.resume) == [])
        _ = try app.handle(.background)
        #expect(try app.handle(.background) == [])
        _ = try app.handle(.suspend)
        #expect(try app.handle(.suspend) == [])
    }

    @Test func suspendingAProcessThatIsNotRunningNamesItAndItsState() {
        var share = ProcessLifecycle(process: "share", role: .share)
        #expect(throws: LifecycleError(process: "share", input: .suspend, state: .notRunning)) {
            try share.handle(.suspend)
        }
        let error = LifecycleError(process: "share", input: .suspend, state: .notRunning)
        #expect(error.description == "cannot suspend 'share': it is not running; launch it first")
        #expect(share.state == .notRunning)
    }

    @Test func invalidTransitionsAreTypedErrorsWithSentences() throws {
        var app = ProcessLifecycle(process: "app", role: .host)
        _ = try app.handle(.launch)
        #expect(throws: LifecycleError(process: "app", input: .suspend, state: .launching)) { try app.handle(.suspend) }
        _ = try app.handle(.ready)
        #expect(throws: LifecycleError(process: "app", input: .launch, state: .active)) { try app.handle(.launch) }
        #expect(throws: LifecycleError(process: "app", input: .ready, state: .active)) { try app.handle(.ready) }
        _ = try app.handle(.suspend)
        #expect(throws: LifecycleError(process: "app", input: .exit, state: .suspended)) { try app.handle(.exit) }
        #expect(throws: LifecycleError(process: "app", input: .background, state: .suspended)) { try app.handle(.background) }
        _ = try app.handle(.crash)
        #expect(throws: LifecycleError(process: "app", input: .resume, state: .crashed)) { try app.handle(.resume) }

        #expect(LifecycleError(process: "app", input: .launch, state: .active).description
            == "cannot launch 'app': it is already running (active)")
        #expect(LifecycleError(process: "app", input: .exit, state: .suspended).description
            == "cannot exit 'app': it is suspended; resume it first")
        #expect(LifecycleError(process: "app", input: .resume, state: .crashed).description
            == "cannot resume 'app': it is not running (crashed); launch it first")
    }

    @Test(arguments: [LifecycleState.notRunning, .exited, .crashed, .terminated])
    func onlyLaunchOrAnExitReportWorksOnAProcessThatIsNotRunning(state: LifecycleState) throws {
        let inputs: [LifecycleInput] = [.ready, .exit, .crash, .background, .suspend, .resume, .foreground, .terminate]
        for input in inputs {
            var lifecycle = try Self.lifecycle(in: state)
            #expect(throws: LifecycleError(process: "p", input: input, state: state)) { try lifecycle.handle(input) }
            #expect(lifecycle.state == state)
        }
        var lifecycle = try Self.lifecycle(in: state)
        #expect(try lifecycle.handle(.childExited(.exited(code: 0))) == [])
        #expect(try lifecycle.handle(.launch) == [.notifyHub(.launching), .spawn])
    }

    private static func lifecycle(in state: LifecycleState) throws -> ProcessLifecycle {
        var lifecycle = ProcessLifecycle(process: "p", role: .host)
        guard state != .notRunning else { return lifecycle }
        _ = try lifecycle.handle(.launch)
        _ = try lifecycle.handle(.ready)
        switch state {
        case .exited: _ = try lifecycle.handle(.exit)
        case .crashed: _ = try lifecycle.handle(.crash)
        case .terminated: _ = try lifecycle.handle(.terminate)
        default: break
        }
        return lifecycle
    }
}
