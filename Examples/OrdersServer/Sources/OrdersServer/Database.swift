import Graft
import Logging
import PostgresNIO
import Synchronization

let databaseLogger = Logger(label: "orders-database")

/// The tables, created when the container starts (a start hook, once the client runs).
struct Schema: Sendable {
    let client: PostgresClient

    /// Creates the tables if they are missing. An order's customer is checked only at COMMIT (a
    /// deferred foreign key), so an order for a customer that does not exist fails its COMMIT.
    func create() async throws {
        try await client.withConnection { connection in
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS customers (id integer PRIMARY KEY, name text NOT NULL);
                """,
                logger: databaseLogger
            )
            try await connection.query(
                "INSERT INTO customers VALUES (1, 'Ada') ON CONFLICT DO NOTHING",
                logger: databaseLogger
            )
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS orders (
                    id serial PRIMARY KEY,
                    customer integer NOT NULL REFERENCES customers (id) DEFERRABLE INITIALLY DEFERRED,
                    item text NOT NULL,
                    quantity integer NOT NULL
                )
                """,
                logger: databaseLogger
            )
        }
    }
}

/// One request's transaction on its leased connection: begun when first resolved, committed in
/// the request's completion step (after the handler returned, before the response is sent, so a
/// failed COMMIT is answered 500), rolled back when its scope closes without having committed.
final class Transaction: Completable, AsyncDisposable {
    let connection: PostgresConnection
    private let committed = Atomic(false)

    static func begin(on connection: PostgresConnection) async throws -> Transaction {
        _ = try await connection.run("BEGIN")
        return Transaction(connection: connection)
    }

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// The completion step: COMMIT before the client is told the order exists.
    func complete() async throws {
        _ = try await connection.run("COMMIT")
        committed.store(true, ordering: .releasing)
    }

    /// Rolls back what was not committed; the connection goes back to the pool after this, when
    /// the scope returns its lease.
    func dispose() async throws {
        // A connection PostgreSQL closed (a restart) has no transaction left to roll back.
        if !committed.load(ordering: .acquiring) && !connection.isClosed {
            _ = try await connection.run("ROLLBACK")
        }
    }
}
