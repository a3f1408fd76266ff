import GraftHummingbird
import Hummingbird

/// The routes that run in a request's scope: each resolves the repository, which leases a
/// connection and begins a transaction on it; the transaction commits before the answer is sent.
func addOrderRoutes(to router: RouterGroup<BasicGraftRequestContext>) {
    router.get("orders") { _, context in
        try await context.resolve(OrderRepository.self).recent()
    }
    router.get("orders/:id") { _, context -> Order in
        let id = try context.parameters.require("id", as: Int.self)
        guard let order = try await context.resolve(OrderRepository.self).find(id: id) else {
            throw HTTPError(.notFound, message: "No order \(id).")
        }
        return order
    }
    router.post("orders") { request, context -> EditedResponse<Order> in
        let new = try await request.decode(as: NewOrder.self, context: context)
        // Answered 201 only once the COMMIT succeeded: an order for a customer that does not
        // exist fails it, and the client gets a 500.
        let order = try await context.resolve(OrderRepository.self).add(new)
        return EditedResponse(status: .created, response: order)
    }
}
