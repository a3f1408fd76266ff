/// The `dispose()` calls a container's scopes are awaiting now, by service: what a shutdown
/// that overran its time names.
///
/// One is shared by the root and every scope under it (a scope closing itself is no longer its
/// parent's child, but its disposals are still the container's open work).
final class DisposalsInProgress: Sendable {
    private struct State: Sendable {
        var running: [Int: ServiceKey] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    /// Records that `key`'s instance is being disposed; pass the result to ``end(_:)``.
    func begin(_ key: ServiceKey) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.running[state.nextID] = key
            return state.nextID
        }
    }

    func end(_ id: Int) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    /// The services being disposed, oldest call first.
    var current: [ServiceKey] {
        state.withLock { state in state.running.sorted { $0.key < $1.key }.map(\.value) }
    }
}
