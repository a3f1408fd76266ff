import Synchronization

/// Counts events from any thread, so a snippet's test can show what Graft did.
final class Counter: Sendable {
    private let count = Atomic(0)

    func add() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
