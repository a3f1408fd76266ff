/// The error for a cycle found while resolving (cycles through closure factories, which
/// `build()` cannot see).
enum CycleReport {
    static func error(_ keys: [ServiceKey], concurrent: Bool = false) -> GraftError {
        let names = keys.map(\.description)
        let first = keys.first?.typeName ?? "?"
        let closing = keys.dropLast().last?.typeName ?? first
        var hints = ["break it with Lazy<\(first)> or Provider<\(first)> in \(closing)"]
        if concurrent {
            hints.insert("two resolves entered this cycle from different ends at the same time", at: 0)
        }
        return GraftError(
            .cycle,
            "dependency cycle: \(names.joined(separator: " → "))",
            service: names.first,
            hints: hints
        )
    }
}
