/// "Did you mean" suggestions for misspelled keys, values and names, by edit distance.
public enum Suggestion {
    /// The candidate nearest to `word`, if it is near enough to be a plausible misspelling.
    ///
    /// Words are compared after folding case and turning camelCase and snake_case into kebab-case, so
    /// `pollInterval` and `poll_interval` both suggest `poll-interval`. A candidate is near enough when
    /// the (optimal string alignment) edit distance is at most a third of the word's length, and at
    /// least 1.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let folded = fold(word)
        let limit = max(1, (folded.count + 2) / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(folded, fold(candidate))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"` when a candidate is near, otherwise `"; expected one of a, b, c."`
    /// (or nothing when there are no candidates).
    public static func hint(for word: String, in candidates: [String], listing: Bool = true) -> String {
        if let near = nearest(to: word, in: candidates) {
            return "; did you mean '\(near)'?"
        }
        guard listing, !candidates.isEmpty else { return "." }
        return "; expected one of \(list(candidates))."
    }

    /// `"; did you mean 'x'?"` when a candidate is near, otherwise `"; "` followed by `advice`.
    public static func hint(for word: String, in candidates: [String], otherwise advice: String) -> String {
        if let near = nearest(to: word, in: candidates) {
            return "; did you mean '\(near)'?"
        }
        return "; " + advice
    }

    /// `a, b or c`.
    public static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// Lowercased kebab-case: `pollInterval` and `poll_interval` become `poll-interval`.
    public static func fold(_ word: String) -> String {
        var result = ""
        var previousWasLower = false
        for character in word {
            if character.isUppercase, previousWasLower {
                result.append("-")
            }
            result.append(character == "_" ? "-" : Character(character.lowercased()))
            previousWasLower = character.isLowercase || character.isNumber
        }
        return result
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
    /// transpositions each cost 1.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }
}
