import Basics
import Foundation
@testable import SharedStore
import Testing

/// An error thrown inside the store that is none of its own keeps what it was.
@Suite struct StoreErrorWrapTests {
    @Test func aForeignErrorIsKeptNotTurnedIntoText() {
        let save = StoreError.wrap(SaveError.conflicts([]))
        #expect(save.code == .other && save.underlying is SaveError)
        // Its kind is still the save's: a scenario's expect-error: conflict matches it.
        #expect(ErrorKind(save) == .conflict)
        let file = StoreError.wrap(CocoaError(.fileNoSuchFile))
        #expect((file.underlying as? CocoaError)?.code == .fileNoSuchFile && ErrorKind(file) == nil)
        #expect("\(file)" == "\(CocoaError(.fileNoSuchFile))")
        // The store's own errors pass through as they are.
        #expect(StoreError.wrap(StoreError.invalidState("x")).code == .invalidState)
    }
}
