/// Near matches for a key nobody registers: other names of the same type, and types whose
/// names are a small edit away (`Engin` for `Engine`).
enum Suggestions {
    /// Lines for a message about `key`, drawn from `registered`.
    static func hints(for key: ServiceKey, among registered: [ServiceKey]) -> [String] {
        var hints: [String] = []
        let sameType = unique(registered.filter { $0.id == key.id }.map(\.description))
        if !sameType.isEmpty {
            hints.append("registered for \(key.typeName): \(sameType.joined(separator: ", "))")
        } else {
            let close = unique(
                registered.map(\.typeName).filter { isClose($0, to: key.typeName) && $0 != key.typeName }
            )
            if !close.isEmpty {
                hints.append("did you mean \(close.joined(separator: " or "))?")
            }
        }
        hints.append("register it: builder.register(\(key.typeName).self\(nameArgument(key))) { _ in ... }")
        return hints
    }

    private static func nameArgument(_ key: ServiceKey) -> String {
        guard let name = key.name else { return "" }
        return ", name: \"\(name)\""
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Whether two names differ by at most a third of the longer one's length (and at most 3 edits).
    static func isClose(_ candidate: String, to target: String) -> Bool {
        let limit = min(3, max(1, max(candidate.count, target.count) / 3))
        return editDistance(candidate.lowercased(), target.lowercased(), limit: limit) <= limit
    }

    /// Levenshtein distance, stopping early once every path exceeds `limit`.
    static func editDistance(_ lhs: String, _ rhs: String, limit: Int) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
