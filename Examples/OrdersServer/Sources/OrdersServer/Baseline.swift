import GraftHummingbird
import GraftPostgres
import Hummingbird
import PostgresNIO

/// The baseline the request scope is measured against (`Scripts/load.sh`), not part of the
/// example's wiring: `GET /bare/orders/:id` does the database work of `GET /orders/:id`, a
/// connection from the pool (`withConnection`), `BEGIN`, the same `SELECT`, `COMMIT` before the
/// answer, each query through the same `query(unlessClosed:logger:)`, written by hand in the route, with no scope and
/// no resolve. The difference between the two routes is what Graft costs.
func addBaselineRoutes(to router: RouterGroup<BasicGraftRequestContext>, client: PostgresClient) {
    router.get("orders/:id") { _, context -> Order in
        let id = try context.parameters.require("id", as: Int.self)
        let order = try await client.withConnection { connection in
            try await connection.query(unlessClosed: "BEGIN", logger: databaseLogger)
            do {
                let order = try await Order.first(
                    of: connection.query(unlessClosed: Order.query(id: id), logger: databaseLogger)
                )
                try await connection.query(unlessClosed: "COMMIT", logger: databaseLogger)
                return order
            } catch {
                if !connection.isClosed {
                    _ = try? await connection.query(unlessClosed: "ROLLBACK", logger: databaseLogger)
                }
                throw error
            }
        }
        guard let order else { throw HTTPError(.notFound, message: "No order \(id).") }
        return order
    }
}
