/// Converts libyaml's positions into the lines and columns an editor shows.
///
/// libyaml (YAML 1.1) also breaks lines at U+0085, U+2028 and U+2029, which editors and YAML 1.2 do
/// not; positions after one of them would name the wrong line. A file without them maps to itself.
struct LineMap {
    /// For each libyaml line (0-based index), the editor's line and the editor's column of its start.
    private let starts: [(line: Int, column: Int)]?

    init(_ text: String) {
        let extra: Set<Unicode.Scalar> = ["\u{85}", "\u{2028}", "\u{2029}"]
        guard text.unicodeScalars.contains(where: { extra.contains($0) }) else {
            starts = nil
            return
        }
        var starts: [(line: Int, column: Int)] = [(1, 1)]
        var line = 1, column = 1
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previous == "\r" {
                previous = scalar
                continue
            }
            if scalar == "\n" || scalar == "\r" {
                line += 1
                column = 1
                starts.append((line, column))
            } else if extra.contains(scalar) {
                column += 1
                starts.append((line, column))
            } else {
                column += 1
            }
            previous = scalar
        }
        self.starts = starts
    }

    /// The editor's position of libyaml's 1-based `line` and `column`.
    func position(line: Int, column: Int) -> (line: Int, column: Int) {
        guard let starts, line >= 1, line <= starts.count else { return (line, column) }
        let start = starts[line - 1]
        return (start.line, start.column + column - 1)
    }
}
