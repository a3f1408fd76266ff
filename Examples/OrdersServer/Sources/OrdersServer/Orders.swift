import Hummingbird
import PostgresNIO

struct Order: ResponseCodable, Sendable {
    var id: Int
    var customer: Int
    var item: String
    var quantity: Int
}

struct NewOrder: Decodable, Sendable {
    var item: String
    var quantity: Int
    /// The customer; 1 (Ada) unless given. One that does not exist fails the COMMIT.
    var customer: Int?
    /// Seconds the database sleeps before the insert (`pg_sleep`): a request that is stuck.
    var delay: Double?
}

/// Orders, read and written in the request's transaction.
struct OrderRepository: Sendable {
    let transaction: Transaction

    func add(_ new: NewOrder) async throws -> Order {
        let connection = transaction.connection
        if let delay = new.delay {
            _ = try await connection.run("SELECT pg_sleep(\(delay))")
        }
        let customer = new.customer ?? 1
        let rows = try await connection.run(
            "INSERT INTO orders (customer, item, quantity) VALUES (\(customer), \(new.item), \(new.quantity)) RETURNING id"
        )
        for try await id in rows.decode(Int.self) {
            return Order(id: id, customer: customer, item: new.item, quantity: new.quantity)
        }
        throw HTTPError(.internalServerError, message: "The insert returned no id.")
    }

    func find(id: Int) async throws -> Order? {
        try await transaction.connection.order(id: id)
    }

    func recent() async throws -> [Order] {
        let rows = try await transaction.connection.run(
            "SELECT id, customer, item, quantity FROM orders ORDER BY id DESC LIMIT 20"
        )
        var orders: [Order] = []
        for try await (id, customer, item, quantity) in rows.decode((Int, Int, String, Int).self) {
            orders.append(Order(id: id, customer: customer, item: item, quantity: quantity))
        }
        return orders
    }
}

extension PostgresConnection {
    /// The order `id`, read on this connection (in its transaction, if one is open).
    func order(id: Int) async throws -> Order? {
        let rows = try await run("SELECT id, customer, item, quantity FROM orders WHERE id = \(id)")
        for try await (id, customer, item, quantity) in rows.decode((Int, Int, String, Int).self) {
            return Order(id: id, customer: customer, item: item, quantity: quantity)
        }
        return nil
    }
}
