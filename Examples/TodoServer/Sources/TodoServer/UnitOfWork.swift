import Graft
import SQLiteNIO
import Synchronization

/// One request's transaction: begun when first resolved, committed in the request's completion
/// step (after the handler returned, before the response is sent, so a failed COMMIT becomes a
/// 500), and rolled back when its scope closes without having committed (the handler threw).
final class UnitOfWork: Completable, AsyncDisposable {
    let connection: SQLiteConnection
    private let pool: ConnectionPool
    private let committed = Atomic(false)

    static func begin(pool: ConnectionPool) async throws -> UnitOfWork {
        let connection = await pool.lease()
        do {
            _ = try await connection.query("BEGIN")
        } catch {
            await pool.release(connection)
            throw error
        }
        return UnitOfWork(connection: connection, pool: pool)
    }

    private init(connection: SQLiteConnection, pool: ConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    /// The completion step: COMMIT before the client is told the todo exists.
    func complete() async throws {
        _ = try await connection.query("COMMIT")
        committed.store(true, ordering: .releasing)
    }

    /// Releases the connection, rolling back first what was not committed.
    func dispose() async throws {
        defer { Task { [pool, connection] in await pool.release(connection) } }
        if !committed.load(ordering: .acquiring) {
            _ = try await connection.query("ROLLBACK")
        }
    }
}
