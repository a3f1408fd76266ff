import GraftHummingbird
import Hummingbird

struct NewTodo: Decodable {
    var title: String
    /// The list it goes on: 1, the inbox, unless given.
    var list: Int?
}

/// The routes that run in a request scope. `/ping` resolves one scoped value and `/empty`
/// nothing; `/bare/ping`, outside the scope's middleware, answers the same without it, so a load
/// test can compare.
func addRoutes(to router: RouterGroup<BasicGraftRequestContext>) {
    router.get("todos") { _, context in
        try await context.resolve(TodoRepository.self).all()
    }
    router.post("todos") { request, context -> Todo in
        let new = try await request.decode(as: NewTodo.self, context: context)
        // Answered only once the request's unit of work has committed: a todo for a list that
        // does not exist fails the COMMIT, and the client gets a 500.
        let todo = try await context.resolve(TodoRepository.self).add(title: new.title, list: new.list ?? 1)
        // Validated after the insert, to show the rollback: the row is not kept.
        guard !new.title.isEmpty else { throw HTTPError(.badRequest, message: "A todo needs a title.") }
        return todo
    }
    router.get("ping") { _, context in
        _ = try await context.resolve(RequestStart.self)
        return "pong"
    }
    // Resolves nothing: what a request's scope costs by itself, opened and closed.
    router.get("empty") { _, _ in "pong" }
}
