import Graft
import GraftHummingbird
import SQLiteNIO

/// One request's transaction: begun when first resolved, committed when the request's scope
/// closes, or rolled back if the request failed.
final class UnitOfWork: AsyncDisposable {
    let connection: SQLiteConnection
    private let pool: ConnectionPool
    private let outcome: RequestOutcome

    static func begin(pool: ConnectionPool, outcome: RequestOutcome) async throws -> UnitOfWork {
        let connection = await pool.lease()
        do {
            _ = try await connection.query("BEGIN")
        } catch {
            await pool.release(connection)
            throw error
        }
        return UnitOfWork(connection: connection, pool: pool, outcome: outcome)
    }

    private init(connection: SQLiteConnection, pool: ConnectionPool, outcome: RequestOutcome) {
        self.connection = connection
        self.pool = pool
        self.outcome = outcome
    }

    func dispose() async throws {
        defer { Task { [pool, connection] in await pool.release(connection) } }
        _ = try await connection.query(outcome.failed ? "ROLLBACK" : "COMMIT")
    }
}
