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
/// commits when that closure returns. This type keeps that closure open, in a task of its own,
/// from the first resolve until the scope decides: its completion step makes the closure return
/// (Fluent commits, and a failed `COMMIT` is the step's error, so the client gets a `500`);
/// closing the scope without completing makes it throw (Fluent rolls back). The connection goes
/// back to the pool when the closure ends.
public final class FluentTransaction: Completable, AsyncDisposable {
    /// The transaction's database: what runs on it is part of the transaction.
    public let database: any Database

    private let decision: TransactionDecision
    private let task: Task<Void, any Error>

    private init(database: any Database, decision: TransactionDecision, task: Task<Void, any Error>) {
        self.database = database
        self.decision = decision
        self.task = task
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
        let decision = TransactionDecision()
        let task = Task {
            do {
                try await database.transaction { transaction in
                    guard await decision.lend(transaction) == .commit else { throw RolledBack() }
                }
            } catch {
                decision.failBeforeLending(error)
                throw error
            }
        }
        let lent = await withTaskCancellationHandler {
            await decision.waitForLending()
        } onCancel: {
            decision.abandon()
        }
        switch lent {
        case .success(let transaction):
            return FluentTransaction(database: transaction, decision: decision, task: task)
        case .failure(let error):
            _ = await task.result  // rolled back (or never begun) before this returns
            throw error
        }
    }

    /// Commits: the request's completion step.
    ///
    /// - Throws: The error of `COMMIT`, after which Fluent has rolled back.
    public func complete() async throws {
        decision.decide(.commit)
        try await task.value
    }

    /// Rolls back unless ``complete()`` committed, and waits until the connection is back.
    ///
    /// - Throws: The error of `ROLLBACK`; a failed `COMMIT` was thrown by ``complete()`` and is not
    ///   thrown again.
    public func dispose() async throws {
        let rollingBack = decision.decide(.rollBack)
        let result = await task.result
        guard rollingBack, case .failure(let error) = result, !(error is RolledBack) else { return }
        throw error
    }
}

/// What a transaction's closure is told when the scope decides.
enum TransactionOutcome: Sendable {
    case commit
    case rollBack
}

/// Thrown inside Fluent's transaction closure to make Fluent roll back.
struct RolledBack: Error {}

/// The hand-over between ``FluentTransaction/begin(on:)`` and the task holding Fluent's
/// transaction closure open: the transaction one way, the scope's decision the other.
///
/// Each continuation is resumed exactly once: it is taken out of the state, under the lock, by
/// the one call that resumes it.
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
        /// The scope's decision, once made.
        var outcome: TransactionOutcome?
        /// The closure, waiting for ``outcome``.
        var holder: CheckedContinuation<TransactionOutcome, Never>?
    }

    private let state = Mutex(State())

    /// Hands `transaction` to the beginner, then waits for the decision: a roll-back at once when
    /// the beginner was cancelled meanwhile.
    func lend(_ transaction: any Database) async -> TransactionOutcome {
        let beginner = state.withLock { state -> CheckedContinuation<Lending, Never>? in
            guard !state.abandoned else {
                state.outcome = state.outcome ?? .rollBack
                return nil
            }
            state.lent = .success(transaction)
            guard let beginner = state.beginner else { return nil }
            state.beginner = nil
            state.handedOver = true
            return beginner
        }
        beginner?.resume(returning: .success(transaction))
        return await withCheckedContinuation { holder in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.holder = holder }
                return state.outcome
            }
            if let outcome { holder.resume(returning: outcome) }
        }
    }

    /// Tells the beginner that no transaction is coming, unless one was lent already.
    func failBeforeLending(_ error: any Error) {
        let beginner = state.withLock { state -> CheckedContinuation<Lending, Never>? in
            guard state.lent == nil else { return nil }
            state.lent = .failure(error)
            defer { state.beginner = nil }
            return state.beginner
        }
        beginner?.resume(returning: .failure(error))
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
        let (beginner, holder) = state.withLock { state in
            guard !state.handedOver else {
                return (CheckedContinuation<Lending, Never>?.none, CheckedContinuation<TransactionOutcome, Never>?.none)
            }
            state.abandoned = true
            state.outcome = state.outcome ?? .rollBack
            defer { (state.beginner, state.holder) = (nil, nil) }
            return (state.beginner, state.holder)
        }
        beginner?.resume(returning: .failure(CancellationError()))
        holder?.resume(returning: .rollBack)
    }

    /// Decides the outcome, unless it was decided before; returns whether this call decided it.
    @discardableResult
    func decide(_ outcome: TransactionOutcome) -> Bool {
        let (decided, holder) = state.withLock { state -> (Bool, CheckedContinuation<TransactionOutcome, Never>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = outcome
            defer { state.holder = nil }
            return (true, state.holder)
        }
        holder?.resume(returning: outcome)
        return decided
    }
}
