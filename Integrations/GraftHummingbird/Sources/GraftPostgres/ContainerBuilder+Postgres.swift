public import Graft
import GraftServiceLifecycle
public import Logging
import PostgresNIO

extension ContainerBuilder {
    /// Declares what a server on PostgreSQL needs beside its `PostgresClient`: the client running
    /// for the container's life, a connection leased per scope, and a ``PostgresTransaction`` per
    /// scope that commits in the completion step.
    ///
    /// Register the client yourself, then call this once:
    ///
    /// ```swift
    /// builder.register(PostgresClient.self, lifetime: .singleton) { _ in PostgresClient(configuration: configuration) }
    /// builder.registerPostgresTransactions()
    /// builder.register(Orders.self, using: Orders.init(transaction:))
    /// ```
    ///
    /// - `PostgresClient`'s `run()` begins when the container starts and ends when it shuts down
    ///   (`builder.runs`), after the scopes using it have closed.
    /// - `PostgresConnection`, scoped: leased from `withConnection` on the first resolve in a
    ///   scope, handed back to the pool when the scope closes.
    /// - ``PostgresTransaction``, scoped: `BEGIN` on its first resolve; `COMMIT` in the scope's
    ///   completion step; `ROLLBACK` when the scope closes without having committed.
    ///
    /// `build()` checks it like the rest: a missing `PostgresClient` registration is reported
    /// there, and so is a singleton that takes the transaction (a captive dependency).
    ///
    /// - Parameters:
    ///   - logger: The logger postgres-nio is given for the transactions' queries.
    ///   - fileID: Where the declaration is made, for messages; leave the default.
    ///   - line: Where the declaration is made, for messages; leave the default.
    public mutating func registerPostgresTransactions(
        logger: Logger = Logger(label: "graft-postgres"),
        fileID: String = #fileID,
        line: Int = #line
    ) {
        runs(PostgresClient.self, fileID: fileID, line: line)
        register(
            PostgresConnection.self,
            lifetime: .scoped,
            dependencies: [Requirement(PostgresClient.self)],
            fileID: fileID,
            line: line
        ) { r, use in
            try await r.resolve(PostgresClient.self).withConnection { connection in try await use(connection) }
        }
        register(PostgresTransaction.self, lifetime: .scoped, fileID: fileID, line: line) {
            (connection: PostgresConnection) async throws -> PostgresTransaction in
            try await PostgresTransaction.begin(on: connection, logger: logger)
        }
        onComplete(PostgresTransaction.self, fileID: fileID, line: line)
    }
}
