import Foundation

/// A length of time in whole microseconds, as scenarios write it: `50us`, `200ms`, `2s`, `1.5m`, `1h`, `7d`.
///
/// Note that this type shadows `Swift.Duration` in files that import ScenarioModel; write
/// `Swift.Duration` for the standard library's, and use ``swiftDuration`` to convert.
///
/// ```swift
/// let within = try Duration(parsing: "200ms")   // 200_000 microseconds
/// within.description                              // "200ms"
/// ```
public struct Duration: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The length in microseconds (never negative for a parsed duration).
    public var microseconds: Int64

    /// Creates a duration of `microseconds`.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// No time at all.
    public static let zero = Duration(microseconds: 0)

    /// `value` microseconds.
    public static func microseconds(_ value: Int64) -> Duration { Duration(microseconds: value) }
    /// `value` milliseconds.
    public static func milliseconds(_ value: Int64) -> Duration { Duration(microseconds: value * 1_000) }
    /// `value` seconds.
    public static func seconds(_ value: Int64) -> Duration { Duration(microseconds: value * 1_000_000) }
    /// `value` minutes.
    public static func minutes(_ value: Int64) -> Duration { .seconds(value * 60) }
    /// `value` hours.
    public static func hours(_ value: Int64) -> Duration { .seconds(value * 3_600) }
    /// `value` days.
    public static func days(_ value: Int64) -> Duration { .seconds(value * 86_400) }

    /// The length in (fractional) seconds, for APIs such as `stalenessInterval`.
    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// The length in nanoseconds, for `CLOCK_MONOTONIC` arithmetic (saturating: a parsed duration is
    /// bounded far below the limit, see `Limits`).
    public var nanoseconds: Int64 {
        let (product, overflow) = microseconds.multipliedReportingOverflow(by: 1_000)
        return overflow ? (microseconds < 0 ? .min : .max) : product
    }

    /// The length in nanoseconds, for the monotonic clock's `UInt64` arithmetic (never negative).
    public var nanos: UInt64 { UInt64(max(0, nanoseconds)) }

    /// The same length as the standard library's `Duration`, for `Task.sleep(for:)` and clocks.
    public var swiftDuration: Swift.Duration { .microseconds(microseconds) }

    public static func < (lhs: Duration, rhs: Duration) -> Bool { lhs.microseconds < rhs.microseconds }

    /// The units a duration may be written in, from the smallest, with their length in microseconds.
    static let units: [(suffix: String, microseconds: Int64)] = [
        ("us", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000),
        ("d", 86_400_000_000),
    ]

    /// The shortest exact spelling: the largest unit that divides the length (`0` for zero).
    public var description: String {
        guard microseconds != 0 else { return "0" }
        for unit in Duration.units.reversed() where microseconds % unit.microseconds == 0 {
            return "\(microseconds / unit.microseconds)\(unit.suffix)"
        }
        return "\(microseconds)us"
    }
}

extension Duration {
    /// Why a duration's text did not parse.
    public enum ParseError: Error, Sendable, Equatable {
        /// The text is not a number followed by a unit.
        case malformed
        /// A number without a unit (other than 0).
        case missingUnit
        /// Finer than a microsecond.
        case outOfRange
        /// Too long to hold in microseconds (about 292,000 years).
        case tooLong
    }

    /// Parses `<number><unit>` with unit `us` (or `µs`), `ms`, `s`, `m`, `h` or `d`; the number may
    /// have a fraction (`1.5s`) as long as the result is a whole number of microseconds. A bare `0`
    /// means zero; any other bare number is an error, because its unit would be a guess.
    public init(parsing text: String) throws(ParseError) {
        let trimmed = text.trimmingWhitespace()
        if let zero = Double(trimmed), zero == 0 {
            self = .zero
            return
        }
        if Double(trimmed) != nil { throw .missingUnit }
        let normalized = trimmed.replacingOccurrences(of: "µs", with: "us")
        guard let unit = Duration.units.reversed()
            .filter({ normalized.hasSuffix($0.suffix) })
            .max(by: { $0.suffix.count < $1.suffix.count })
        else { throw .malformed }
        let number = String(normalized.dropLast(unit.suffix.count)).trimmingWhitespace()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, number.first != ".", number.last != "."
        else { throw .malformed }
        self.microseconds = try Duration.scaled(number, by: unit.microseconds)
    }

    /// `number × scale`, exactly, from its decimal digits.
    private static func scaled(_ number: String, by scale: Int64) throws(ParseError) -> Int64 {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard let whole = Int64(parts[0]) else { throw .tooLong }
        var (total, overflow) = whole.multipliedReportingOverflow(by: scale)
        guard !overflow else { throw .tooLong }
        if parts.count == 2 {
            var fraction = parts[1]
            while fraction.last == "0" { fraction = fraction.dropLast() }
            var remaining = scale
            for digit in fraction {
                guard remaining % 10 == 0, let value = Int64(String(digit)) else { throw .outOfRange }
                remaining /= 10
                (total, overflow) = total.addingReportingOverflow(value * remaining)
                guard !overflow else { throw .tooLong }
            }
        }
        return total
    }
}

extension Duration: Codable {
    /// Decodes the text form (`"200ms"`), or a number of microseconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let microseconds = try? container.decode(Int64.self) {
            self.init(microseconds: microseconds)
            return
        }
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a duration like 200ms.")
        }
    }

    /// Encodes the text form, for example `"200ms"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
