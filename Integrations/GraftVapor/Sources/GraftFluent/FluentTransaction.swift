public import Fluent
public import Graft
import Synchronization

/// A request's database transaction: begun on first use, committed in the request's completion
/// step (before the response is sent), rolled back when the request fails or never completes.
///
/// ``Graft/ContainerBuilder/registerFluent(_:database:fileID:line:)`` registers it as a scoped
/// service with its completion step. Resolve it in a handler, and run the request's writes on
/// its ``database``:
///
/// ```swift
/// app.post("messages") { req async throws -> HTTPStatus in
///     let transaction = try await req.resolve(FluentTransaction.self)
///     try await Message(text: req.content.decode(String.self)).create(on: transaction.database)
///     return .created  // sent after COMMIT succeeded; a COMMIT that fails is a 500
/// }
/// ```
///
/// Fluent lends a transaction only inside the closure of `Database.transaction(_:)`, and
/// commits when the future that closure returns succeeds. This type returns a future that the
/// scope decides: its completion step succeeds it (Fluent commits, and a failed `COMMIT` is the
/// step's error, so the client gets a `500`); closing the scope without completing fails it
/// (Fluent rolls back). The connection goes back to the pool when the transaction ends. Fluent's
/// future-based `transaction(_:)` is used, not its async one, which would run the closure in a
/// task of its own, and this type needs none: the closure only hands the transaction over.
public final class FluentTransaction: Completable, AsyncDisposable {
    /// The transaction's database: what runs on it is part of the transaction.
    public let database: any Database

    private let decision: TransactionDecision

    private init(database: any Database, decision: TransactionDecision) {
        self.database = database
        self.decision = decision
    }

    /// Begins a transaction on `database` and holds it open until ``complete()`` or
    /// ``dispose()``.
    ///
    /// - Parameter database: The database to begin it on: the request's.
    /// - Returns: The open transaction.
    /// - Throws: The error of `BEGIN` (or of getting a connection); `CancellationError` when the
    ///   calling task was cancelled first, in which case a transaction begun meanwhile is rolled
    ///   back at once.
    public static func begin(on database: any Database) async throws -> FluentTransaction {
        let decision = TransactionDecision(outcome: database.eventLoop.makePromise())
        // One callback on the transaction's end, which tells the beginner when BEGIN failed and
        // the deciding step when COMMIT or ROLLBACK is done: awaiting the future itself each time
        // would cost a hop to its event loop each time.
        database.transaction { transaction in decision.lend(transaction) }.whenComplete(decision.end)
        let lent = await withTaskCancellationHandler {
            await decision.waitForLending()
        } onCancel: {
            decision.abandon()
        }
        switch lent {
        case .success(let transaction):
            return FluentTransaction(database: transaction, decision: decision)
        case .failure(let error):
            _ = await decision.ending()  // rolled back (or never begun) before this returns
            throw error
        }
    }

    /// Commits: the request's completion step.
    ///
    /// - Throws: The error of `COMMIT`, after which Fluent has rolled back.
    public func complete() async throws {
        decision.decide(.commit)
        try await decision.ending().get()
    }

    /// Rolls back unless ``complete()`` committed, and waits until the connection is back.
    ///
    /// - Throws: The error of `ROLLBACK`; a failed `COMMIT` was thrown by ``complete()`` and is not
    ///   thrown again.
    public func dispose() async throws {
        let rollingBack = decision.decide(.rollBack)
        let ending = await decision.ending()
        guard rollingBack, case .failure(let error) = ending, !(error is RolledBack) else { return }
        throw error
    }
}

/// What a transaction's closure is told when the scope decides.
enum TransactionOutcome: Sendable {
    case commit
    case rollBack
}

/// Fails the future a transaction's closure returned, to make Fluent roll back.
struct RolledBack: Error {}

/// The hand-over between ``FluentTransaction/begin(on:)`` and Fluent's transaction closure: the
/// transaction one way, the scope's decision the other (as the future the closure returned).
///
/// The beginner's continuation is resumed exactly once: it is taken out of the state, under the
/// lock, by the one call that resumes it. The outcome promise is completed once, by the call that
/// decides.
final class TransactionDecision: Sendable {
    private typealias Lending = Result<any Database, any Error>

    private struct State: Sendable {
        /// What the closure lent (or the error before it could), until the beginner takes it.
        var lent: Lending?
        /// The beginner, waiting for ``lent``.
        var beginner: CheckedContinuation<Lending, Never>?
        /// Whether the beginner has the transaction: from then on a `FluentTransaction` owns it.
        var handedOver = false
        /// Whether the beginner was cancelled before it had the transaction.
        var abandoned = false
        /// Whether the outcome was decided.
        var decided = false
        /// How the transaction ended (committed, rolled back, never begun), once it has.
        var ended: Result<Void, any Error>?
        /// Who waits for ``ended``.
        var endWaiters: [CheckedContinuation<Result<Void, any Error>, Never>] = []
    }

    /// The future the transaction's closure returns: succeeded to commit, failed to roll back.
    private let outcome: EventLoopPromise<Void>
    private let state = Mutex(State())

    init(outcome: EventLoopPromise<Void>) {
        self.outcome = outcome
    }

    /// Hands `transaction` to the beginner and returns the future the closure returns: rolled
    /// back at once when the beginner was cancelled meanwhile.
    func lend(_ transaction: any Database) -> EventLoopFuture<Void> {
        let beginner = state.withLock { state -> CheckedContinuation<Lending, Never>? in
            guard !state.abandoned else { return nil }
            state.lent = .success(transaction)
            guard let beginner = state.beginner else { return nil }
            state.beginner = nil
            state.handedOver = true
            return beginner
        }
        beginner?.resume(returning: .success(transaction))
        return outcome.futureResult
    }

    /// The transaction has ended: tells the beginner, when it failed before anything was lent
    /// (BEGIN failed, or no connection), and whoever waits for the end.
    func end(_ result: Result<Void, any Error>) {
        let (beginner, waiters) = state.withLock { state in
            var beginner: CheckedContinuation<Lending, Never>?
            if state.lent == nil, case .failure(let error) = result {
                state.lent = .failure(error)
                beginner = state.beginner
                state.beginner = nil
            }
            state.ended = result
            defer { state.endWaiters = [] }
            return (beginner, state.endWaiters)
        }
        if let beginner, case .failure(let error) = result { beginner.resume(returning: .failure(error)) }
        for waiter in waiters { waiter.resume(returning: result) }
        // A closure Fluent never called left the outcome undecided: it must still be settled.
        decide(.rollBack)
    }

    /// How the transaction ended, once it has.
    func ending() async -> Result<Void, any Error> {
        await withCheckedContinuation { waiter in
            let ended = state.withLock { state in
                if state.ended == nil { state.endWaiters.append(waiter) }
                return state.ended
            }
            if let ended { waiter.resume(returning: ended) }
        }
    }

    /// The transaction once lent, or the error that came instead.
    func waitForLending() async -> Result<any Database, any Error> {
        await withCheckedContinuation { beginner in
            let ready = state.withLock { state -> Lending? in
                if state.abandoned { return .failure(CancellationError()) }
                guard let lent = state.lent else {
                    state.beginner = beginner
                    return nil
                }
                if case .success = lent { state.handedOver = true }
                return lent
            }
            if let ready { beginner.resume(returning: ready) }
        }
    }

    /// The beginner was cancelled before it had the transaction: it stops waiting, and the
    /// transaction, lent now or later, rolls back.
    func abandon() {
        let beginner = state.withLock { state -> CheckedContinuation<Lending, Never>?? in
            guard !state.handedOver else { return .none }
            state.abandoned = true
            defer { state.beginner = nil }
            return .some(state.beginner)
        }
        guard let beginner else { return }
        beginner?.resume(returning: .failure(CancellationError()))
        decide(.rollBack)
    }

    /// Decides the outcome, unless it was decided before; returns whether this call decided it.
    @discardableResult
    func decide(_ decision: TransactionOutcome) -> Bool {
        let decided = state.withLock { state in
            guard !state.decided else { return false }
            state.decided = true
            return true
        }
        guard decided else { return false }
        switch decision {
        case .commit: outcome.succeed(())
        case .rollBack: outcome.fail(RolledBack())
        }
        return true
    }
}
