/// The `dispose()` calls (and lease returns) a container's scopes are awaiting now, by service:
/// what a shutdown that overran its time names.
///
/// One is shared by the root and every scope under it (a scope closing itself is no longer its
/// parent's child, but its disposals are still the container's open work).
final class DisposalsInProgress: Sendable {
    private struct State: Sendable {
        var running: [Int: OpenHolding] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Records that `record`'s instance is being disposed (or its lease returned); pass the
    /// result to ``end(_:)``.
    func begin(_ record: DisposalRecord) -> Int {
        let holding = OpenHolding(record)
        return state.withLock { state in
            state.nextID += 1
            state.running[state.nextID] = holding
            return state.nextID
        }
    }

    func end(_ id: Int) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    /// What is being disposed or returned, oldest call first.
    var current: [OpenHolding] {
        state.withLock { state in state.running.sorted { $0.key < $1.key }.map(\.value) }
    }
}
