import Graft
import Synchronization

/// What the tests' services did: which units of work were made and disposed, in order.
///
/// Waiting is by continuation, never by time: a test waits until a count is reached, and its
/// time limit is the only bound.
final class Ledger: Sendable {
    private struct State {
        var nextID = 1
        var made: [Int] = []
        var disposed: [String] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var arrivals = 0
        var barrier: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func make() -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.made.append(id)
            return id
        }
    }

    var made: [Int] { state.withLock { $0.made } }
    var disposed: [String] { state.withLock { $0.disposed } }

    func recordDisposal(_ name: String) {
        let ready = state.withLock { state in
            state.disposed.append(name)
            let count = state.disposed.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once at least `count` disposals were recorded.
    func waitForDisposals(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isReady = state.withLock { state in
                guard state.disposed.count < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    /// Returns once `total` callers have arrived (then the barrier is ready for its next round).
    func arrive(total: Int) async {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state in
                state.arrivals += 1
                state.barrier.append(continuation)
                guard state.arrivals == total else { return [CheckedContinuation<Void, Never>]() }
                defer {
                    state.barrier = []
                    state.arrivals = 0
                }
                return state.barrier
            }
            for waiting in released { waiting.resume() }
        }
    }
}

/// A per-request service that reports its own disposal.
final class UnitOfWork: AsyncDisposable {
    let id: Int
    private let ledger: Ledger
    private let disposedFlag = Atomic(false)

    init(ledger: Ledger) {
        self.ledger = ledger
        self.id = ledger.make()
    }

    var isDisposed: Bool { disposedFlag.load(ordering: .acquiring) }

    func dispose() async throws {
        disposedFlag.store(true, ordering: .releasing)
        ledger.recordDisposal("unit of work \(id)")
    }
}

/// An app-wide service, disposed when the container shuts down.
final class Pool: Disposable {
    private let ledger: Ledger

    init(ledger: Ledger) {
        self.ledger = ledger
    }

    func dispose() throws {
        ledger.recordDisposal("pool")
    }
}

extension Ledger {
    /// A container with a singleton pool and a scoped unit of work, both reporting to this ledger.
    func makeContainer() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Ledger.self, instance: self)
        builder.register(Pool.self, lifetime: .singleton, using: Pool.init(ledger:))
        builder.register(UnitOfWork.self, lifetime: .scoped, using: UnitOfWork.init(ledger:))
        return try builder.build()
    }
}
