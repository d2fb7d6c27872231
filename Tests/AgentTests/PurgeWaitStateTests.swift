import Basics
import Testing
@testable import Agent

/// A purge waiting for a lock postpones what the process is asked meanwhile, and decides the expectation
/// of the step whose refresh ran it.
@Suite struct PurgeWaitStateTests {
    @Test func nothingPostponedComesBackWhileThePurgeWaits() {
        var wait = PurgeWait()
        wait.begin(deciding: nil)
        wait.postpone(.refresh(.poll))
        wait.postpone(.advanceClock(nanos: 5))
        #expect(wait.isPending)
        #expect(wait.nextPostponed() == nil)
        wait.end()
        #expect(!wait.isPending)
        #expect(wait.nextPostponed() == .refresh(.poll))
        #expect(wait.nextPostponed() == .advanceClock(nanos: 5))
        #expect(wait.nextPostponed() == nil)
    }

    /// A refresh asked twice runs once (a timer fires once for the fires it missed); clock advances all count,
    /// in the order asked.
    @Test func aRefreshAskedTwiceIsPostponedOnceAndClockAdvancesEachTime() {
        var wait = PurgeWait()
        wait.begin(deciding: nil)
        wait.postpone(.refresh(.poll))
        wait.postpone(.advanceClock(nanos: 1))
        wait.postpone(.refresh(.poll))
        wait.postpone(.refresh(.activation))
        wait.postpone(.advanceClock(nanos: 1))
        wait.end()
        var taken: [DeferredWork] = []
        while let work = wait.nextPostponed() { taken.append(work) }
        #expect(taken == [.refresh(.poll), .advanceClock(nanos: 1), .refresh(.activation), .advanceClock(nanos: 1)])
    }

    /// The expectation is the purge's to decide once, when it ends; a new wait starts without it.
    @Test func endingTheWaitHandsOverItsExpectationOnce() {
        var wait = PurgeWait()
        wait.begin(deciding: PurgeWait.Expectation(kind: .busy, step: 4))
        #expect(wait.expectation == PurgeWait.Expectation(kind: .busy, step: 4))
        #expect(wait.end() == PurgeWait.Expectation(kind: .busy, step: 4))
        #expect(wait.end() == nil)
        wait.begin(deciding: nil)
        #expect(wait.isPending)
        #expect(wait.expectation == nil)
    }
}
