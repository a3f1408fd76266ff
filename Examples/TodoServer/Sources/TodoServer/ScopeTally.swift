import Graft
import Synchronization

/// Counts request scopes that made a ``RequestStart`` and those that closed it, so a soak test
/// can check that every scope was closed (`GET /bare/stats`).
final class ScopeTally: Sendable {
    private let opened = Atomic(0)
    private let closed = Atomic(0)

    func open() { opened.add(1, ordering: .relaxed) }
    func close() { closed.add(1, ordering: .relaxed) }

    var summary: String {
        "scopes opened \(opened.load(ordering: .relaxed)) closed \(closed.load(ordering: .relaxed))\n"
    }
}

/// When the request began: the cheapest scoped service, made once per request and disposed
/// with its scope.
final class RequestStart: Disposable {
    let instant = ContinuousClock.now
    private let tally: ScopeTally

    init(tally: ScopeTally) {
        self.tally = tally
        tally.open()
    }

    func dispose() { tally.close() }
}
