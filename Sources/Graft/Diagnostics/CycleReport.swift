/// The error for a dependency cycle: one `build()` finds among immediate dependencies, or one
/// found while resolving (cycles through closure factories, which `build()` cannot see).
@usableFromInline
enum CycleReport {
    static let concurrentHint = "two resolves entered this cycle from different ends at the same time"

    /// The error for the cycle `keys`, which ends with the key it starts with.
    ///
    /// The hint names the registration that closes the cycle, where the `Lazy` goes, as paths
    /// name a service (`Engine["garage"]`, not `Engine`, which may be another registration).
    ///
    /// - Parameters:
    ///   - concurrent: Whether two resolves entered the cycle from different ends.
    ///   - closingSource: Where the closing registration was made, when known (`build()` knows;
    ///     a resolve that found the cycle does not).
    static func error(_ keys: [ServiceKey], concurrent: Bool = false, closingSource: String? = nil) -> GraftError {
        let names = keys.map(\.description)
        let first = keys.first?.typeName ?? "?"
        let closing = keys.dropLast().last?.description ?? first
        var hints = ["break it with Lazy<\(first)> or Provider<\(first)> in \(closing)"]
        if let closingSource {
            hints.append("\(closing) was registered at \(closingSource)")
        }
        if concurrent {
            hints.insert(concurrentHint, at: 0)
        }
        return GraftError(
            .cycle,
            "dependency cycle: \(names.joined(separator: " → "))",
            service: names.first,
            hints: hints
        )
    }

    /// `error` as it unwinds out of resolving `key`, with `key` prefixed to its path.
    ///
    /// A cycle is detected where the resolution re-enters a service, and the detector sees only
    /// the closure factories and shared creations under way, not the transients and autowired
    /// links in between. Once the error has unwound back to the resolve that started the cycle,
    /// its path holds every step, so the summary and hint are rebuilt from that path.
    @usableFromInline
    static func unwinding(_ error: GraftError, through key: ServiceKey) -> GraftError {
        let error = error.prefixingPath(with: key.description)
        guard error.code == .cycle, error.path.count > 1, error.path.first == error.path.last else { return error }
        let closing = error.path[error.path.count - 2]
        var hints = ["break it with Lazy<\(key.typeName)> or Provider<\(key.typeName)> in \(closing)"]
        if error.hints.contains(concurrentHint) {
            hints.insert(concurrentHint, at: 0)
        }
        return GraftError(
            .cycle,
            "dependency cycle: \(error.path.joined(separator: " → "))",
            service: key.description,
            path: error.path,
            hints: hints
        )
    }
}
