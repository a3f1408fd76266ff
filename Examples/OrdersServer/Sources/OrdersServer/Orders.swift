import GraftPostgres
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

/// Orders, read and written in the request's transaction (GraftPostgres' `PostgresTransaction`:
/// begun when the repository is made, committed before the response is sent, rolled back otherwise).
struct OrderRepository: Sendable {
    let transaction: PostgresTransaction

    func add(_ new: NewOrder) async throws -> Order {
        if let delay = new.delay {
            try await transaction.query("SELECT pg_sleep(\(delay))")
        }
        let customer = new.customer ?? 1
        let rows = try await transaction.query(
            "INSERT INTO orders (customer, item, quantity) VALUES (\(customer), \(new.item), \(new.quantity)) RETURNING id"
        )
        for try await id in rows.decode(Int.self) {
            return Order(id: id, customer: customer, item: new.item, quantity: new.quantity)
        }
        throw HTTPError(.internalServerError, message: "The insert returned no id.")
    }

    func find(id: Int) async throws -> Order? {
        try await Order.first(of: transaction.query(Order.query(id: id)))
    }

    func recent() async throws -> [Order] {
        let rows = try await transaction.query(
            "SELECT id, customer, item, quantity FROM orders ORDER BY id DESC LIMIT 20"
        )
        var orders: [Order] = []
        for try await (id, customer, item, quantity) in rows.decode((Int, Int, String, Int).self) {
            orders.append(Order(id: id, customer: customer, item: item, quantity: quantity))
        }
        return orders
    }
}

extension Order {
    /// The query for the order `id`.
    static func query(id: Int) -> PostgresQuery {
        "SELECT id, customer, item, quantity FROM orders WHERE id = \(id)"
    }

    /// The first order of `rows`, or `nil`.
    static func first(of rows: PostgresRowSequence) async throws -> Order? {
        for try await (id, customer, item, quantity) in rows.decode((Int, Int, String, Int).self) {
            return Order(id: id, customer: customer, item: item, quantity: quantity)
        }
        return nil
    }
}
