public import Graft
import Logging
public import PostgresNIO
import Synchronization

/// One scope's transaction on the connection it leased: begun on the first resolve, committed in
/// the scope's completion step, rolled back when the scope closes without having committed.
///
/// ``Graft/ContainerBuilder/registerPostgresTransactions(logger:fileID:line:)`` registers it as a
/// scoped service. In a web request (GraftHummingbird's `RequestScopeMiddleware`, GraftVapor's
/// middleware) the completion step runs after the handler returned and before the response is
/// sent, so a `COMMIT` that fails is answered `500` and a client is never told of work that was
/// not kept:
///
/// ```swift
/// struct Orders: Sendable {
///     let transaction: PostgresTransaction
///
///     func add(_ item: String) async throws {
///         try await transaction.query("INSERT INTO orders (item) VALUES (\(item))")
///     }
/// }
/// ```
///
/// Its queries fail instead of waiting forever when the connection closes under them (see
/// ``query(_:)``), and once its scope has closed (a request past its deadline whose handler
/// went on) they throw instead of reaching a connection that went back to the pool.
public final class PostgresTransaction: Completable, AsyncDisposable {
    private let connection: PostgresConnection
    private let logger: Logger
    private let state = Mutex(State.open)

    private enum State {
        case open
        case committed
        case ended
    }

    static func begin(on connection: PostgresConnection, logger: Logger) async throws -> PostgresTransaction {
        _ = try await connection.query(unlessClosed: "BEGIN", logger: logger)
        return PostgresTransaction(connection: connection, logger: logger)
    }

    private init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Runs `query` in the transaction.
    ///
    /// - Parameter query: The query, with its bindings interpolated (`"… WHERE id = \(id)"`).
    /// - Returns: Its rows.
    /// - Throws: ``PostgresTransactionError`` when the scope has closed or committed already,
    ///   or when the connection closed before answering (PostgreSQL restarted); postgres-nio's
    ///   `PSQLError` otherwise.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        guard case .open = state.withLock({ $0 }) else { throw PostgresTransactionError.ended }
        return try await connection.query(unlessClosed: query, logger: logger)
    }

    /// The completion step: `COMMIT`, before the client is told anything.
    ///
    /// - Throws: What the `COMMIT` throws (a deferred constraint that fails, a lost connection).
    public func complete() async throws {
        guard case .open = state.withLock({ $0 }) else { throw PostgresTransactionError.ended }
        try await connection.query(unlessClosed: "COMMIT", logger: logger)
        state.withLock { $0 = .committed }
    }

    /// Rolls back what was not committed, unless the connection has closed (nothing is left to
    /// roll back); the connection then goes back to the pool when the scope returns its lease.
    ///
    /// - Throws: What the `ROLLBACK` throws.
    public func dispose() async throws {
        let wasOpen = state.withLock { state in
            defer { state = .ended }
            if case .open = state { return true }
            return false
        }
        if wasOpen && !connection.isClosed {
            try await connection.query(unlessClosed: "ROLLBACK", logger: logger)
        }
    }
}

/// Why a ``PostgresTransaction`` query did not run.
public struct PostgresTransactionError: Error, CustomStringConvertible {
    private enum Kind {
        case ended
        case connectionClosed(PostgresConnection.ID)
    }

    private let kind: Kind

    static let ended = PostgresTransactionError(kind: .ended)

    static func connectionClosed(_ id: PostgresConnection.ID) -> PostgresTransactionError {
        PostgresTransactionError(kind: .connectionClosed(id))
    }

    /// What happened, and what to do.
    public var description: String {
        switch kind {
        case .ended:
            "the transaction has ended (committed, or its scope closed): make queries before the scope completes"
        case .connectionClosed(let id):
            "PostgreSQL connection \(id) closed before answering a query; the request can be tried again"
        }
    }
}
