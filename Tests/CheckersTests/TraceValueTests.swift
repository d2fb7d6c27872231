import Testing
import Trace

/// A read's value is judged by `TraceValue.matches`: strings by their bytes (as SQLite and `NSString`
/// compare them), numbers across `int` and `double`.
@Suite struct TraceValueTests {
    @Test func stringsMatchByTheirBytes() {
        #expect(TraceValue.string("Milk").matches(.string("Milk")))
        #expect(TraceValue.string("").matches(.string("")))
        #expect(!TraceValue.string("Milk").matches(.string("Milf")))
        #expect(!TraceValue.string("Milk").matches(.string("Milk ")))
        // Canonically equivalent, but two values to a store: Swift's `==` on String would call them equal.
        #expect(!TraceValue.string("\u{E9}").matches(.string("e\u{301}")))
        let long = String(repeating: "é", count: 300)
        #expect(TraceValue.string(long).matches(.string(String(repeating: "é", count: 300))))
        #expect(!TraceValue.string(long).matches(.string(String(repeating: "é", count: 299) + "e")))
    }

    @Test func aStringMatchesNoOtherKind() {
        #expect(!TraceValue.string("1").matches(.int(1)))
        #expect(!TraceValue.int(1).matches(.string("1")))
        #expect(!TraceValue.string("").matches(.null))
    }

    @Test func numbersMatchAcrossIntAndDouble() {
        #expect(TraceValue.int(1).matches(.double(1.0)))
        #expect(TraceValue.double(2.0).matches(.int(2)))
        #expect(!TraceValue.int(1).matches(.double(1.5)))
        #expect(TraceValue.null.matches(.null))
        #expect(!TraceValue.bool(true).matches(.int(1)))
    }
}
