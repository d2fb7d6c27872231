/// Renders nanosecond durations the way reports and explanations print them:
/// `412 µs`, `4.12 ms`, `41.2 ms`, `412 ms`, `4.12 s`, `41.2 s`.
public enum DurationText {
    /// A duration in nanoseconds as a short human string with three significant digits.
    public static func format(_ nanos: UInt64) -> String {
        if nanos < 1_000 { return "\(nanos) ns" }
        if nanos < 1_000_000 { return scaled(nanos, unit: 1_000, suffix: "µs") }
        if nanos < 1_000_000_000 { return scaled(nanos, unit: 1_000_000, suffix: "ms") }
        return scaled(nanos, unit: 1_000_000_000, suffix: "s")
    }

    /// A signed difference (`b - a`) formatted with its sign when negative.
    public static func format(signed nanos: Int64) -> String {
        nanos < 0 ? "-" + format(UInt64(-nanos)) : format(UInt64(nanos))
    }

    /// Milliseconds with up to three decimals, for tables and JSON-adjacent text (`12.345`).
    public static func milliseconds(_ nanos: UInt64) -> String {
        let micros = (nanos + 500) / 1_000
        let whole = micros / 1_000
        let frac = micros % 1_000
        if frac == 0 { return "\(whole)" }
        var digits = String(frac)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    private static func scaled(_ nanos: UInt64, unit: UInt64, suffix: String) -> String {
        let value = Double(nanos) / Double(unit)
        let decimals = value >= 100 ? 0 : (value >= 10 ? 1 : 2)
        var text = fixed(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return "\(text) \(suffix)"
    }

    /// Fixed-point rendering without Foundation's locale-dependent formatters.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded()
        let integer = Int64(rounded / scale)
        let fraction = Int64(rounded) - integer * Int64(scale)
        guard decimals > 0 else { return String(integer) }
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        return "\(integer).\(digits)"
    }
}
