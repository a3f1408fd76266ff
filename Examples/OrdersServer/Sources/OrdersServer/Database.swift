import Logging
import PostgresNIO

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
