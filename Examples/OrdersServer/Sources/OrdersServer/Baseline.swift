import GraftHummingbird
import Hummingbird
import PostgresNIO

/// The baseline the request scope is measured against (`Scripts/load.sh`), not part of the
/// example's wiring: `GET /bare/orders/:id` does the database work of `GET /orders/:id`, a
/// connection from the pool, `BEGIN`, the same `SELECT`, `COMMIT` before the answer, written by
/// hand with postgres-nio's `withTransaction` in the route, with no scope and no resolve. The
/// difference between the two routes is what Graft costs.
func addBaselineRoutes(to router: RouterGroup<BasicGraftRequestContext>, client: PostgresClient) {
    router.get("orders/:id") { _, context -> Order in
        let id = try context.parameters.require("id", as: Int.self)
        let order = try await client.withTransaction(logger: databaseLogger) { connection in
            try await connection.order(id: id)
        }
        guard let order else { throw HTTPError(.notFound, message: "No order \(id).") }
        return order
    }
}
