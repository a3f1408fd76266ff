import Synchronization

/// Places in the engine where two threads can meet, named so that a race test can hold one
/// thread at a place while the other runs: the interleaving is then decided by the test's
/// signals, not by the scheduler or a sleep.
///
/// For Graft's own tests (`@_spi(Interleavings) import Graft`); nothing else installs a
/// handler, and with none installed a point costs one relaxed load.
@_spi(Interleavings)
public enum InterleavingPoint: Sendable, Equatable {
    /// A closing scope, holding its own lock, is about to close the open child `child`.
    case parentClosesChild(child: ObjectIdentifier)
    /// A scope let go without being closed has read, in its `deinit`, whether its parent still
    /// lists it (`listed`), and is about to act on it: unlist itself under the parent's lock
    /// when listed, go when not.
    case scopeLetGo(ObjectIdentifier, listed: Bool)
}

/// The handler a race test installs (see ``InterleavingPoint``).
@_spi(Interleavings)
public enum Interleavings {
    /// Calls `handler` at every interleaving point any thread reaches while `body` runs.
    ///
    /// The handler runs on the thread that reached the point, with whatever locks the point
    /// names held: it may block that thread until the test's other thread has done its part,
    /// but must not call into the container on it.
    public static func whileRunning<Result>(
        calling handler: @escaping @Sendable (InterleavingPoint) -> Void,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        let id = installed.withLock { state in
            defer { state.next += 1 }
            state.handlers[state.next] = handler
            return state.next
        }
        isInstalled.store(true, ordering: .releasing)
        defer {
            let remaining = installed.withLock { state in
                state.handlers[id] = nil
                return state.handlers.count
            }
            if remaining == 0 { isInstalled.store(false, ordering: .releasing) }
        }
        return try await body()
    }

    /// Tells the installed handlers that this thread reached `point`.
    @inline(__always)
    static func reach(_ point: @autoclosure () -> InterleavingPoint) {
        guard _slowPath(isInstalled.load(ordering: .relaxed)) else { return }
        report(point())
    }

    @inline(never)
    private static func report(_ point: InterleavingPoint) {
        for handler in installed.withLock({ $0.handlers.values }) { handler(point) }
    }

    private static let isInstalled = Atomic(false)
    private static let installed = Locked(Handlers())

    private struct Handlers: Sendable {
        var handlers: [Int: @Sendable (InterleavingPoint) -> Void] = [:]
        var next = 0
    }
}
