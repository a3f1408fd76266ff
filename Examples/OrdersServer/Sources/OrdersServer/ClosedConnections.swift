import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Runs `query` on this connection, and fails it, instead of waiting forever, when the
    /// connection closed under it.
    ///
    /// postgres-nio 1.33 can lose a query sent on a connection that has just closed (PostgreSQL
    /// restarted): `PostgresConnection.query(_:logger:)` writes it with `channel.write(_:promise:
    /// nil)`, and once NIO has removed the closed channel's handlers the write is dropped with the
    /// query's promise, which is then never completed (a fix merged upstream was reverted). The
    /// query itself cannot be cancelled, so it runs in its own task, and while it has not
    /// answered, the connection is looked at each second: once it is closed, the query fails
    /// with ``ConnectionClosed`` and its request ends, and only that task is left waiting.
    func run(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = FirstOutcome(continuation)
            let watch = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                if self.isClosed { outcome.resume(with: .failure(ConnectionClosed(id: self.id))) }
            }
            Task {
                let result: Result<PostgresRowSequence, any Error>
                do {
                    result = .success(try await self.query(query, logger: databaseLogger))
                } catch {
                    result = .failure(error)
                }
                watch.cancel()
                outcome.resume(with: result)
            }
        }
    }
}

/// A query that was lost because its connection closed (PostgreSQL restarted, say).
struct ConnectionClosed: Error, CustomStringConvertible {
    let id: PostgresConnection.ID

    var description: String {
        "PostgreSQL connection \(id) closed before answering a query; the request can be tried again"
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
