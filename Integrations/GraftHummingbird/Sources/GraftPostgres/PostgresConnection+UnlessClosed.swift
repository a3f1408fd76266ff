public import Logging
import NIOCore
public import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Runs `query`, and fails it instead of waiting forever when the connection closes under it.
    ///
    /// postgres-nio 1.33 can lose a query sent on a connection that has just closed (PostgreSQL
    /// restarted): `query(_:logger:)` writes it with `channel.write(_:promise: nil)`, and once
    /// NIO has removed the closed channel's handlers the write is dropped with the query's
    /// promise, which is then never completed. The query itself cannot be cancelled, so it runs
    /// in a task of its own, and while it has not answered the connection is looked at each
    /// second: once it is closed, this throws ``PostgresTransactionError`` and only that task is
    /// left waiting.
    ///
    /// ```swift
    /// let rows = try await connection.query(unlessClosed: "SELECT 1", logger: logger)
    /// ```
    ///
    /// - Parameters:
    ///   - query: The query.
    ///   - logger: postgres-nio's logger for it.
    /// - Returns: Its rows.
    /// - Throws: ``PostgresTransactionError`` when the connection closed first; the query's error.
    @discardableResult
    public func query(unlessClosed query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            let watch = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                if self.isClosed { outcome.resume(with: .failure(PostgresTransactionError.connectionClosed(self.id))) }
            }
            Task {
                let result: Result<PostgresRowSequence, any Error>
                do {
                    result = .success(try await self.query(query, logger: logger))
                } catch {
                    result = .failure(error)
                }
                watch.cancel()
                outcome.resume(with: result)
            }
        }
    }
}

/// A continuation resumed by whichever outcome comes first; the later ones are ignored.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
