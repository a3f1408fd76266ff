import GraftHummingbird
import Hummingbird

struct NewTodo: Decodable {
    var title: String
}

/// The routes that run in a request scope. `/ping` resolves one scoped value; `/bare/ping`,
/// outside the scope's middleware, answers the same without it, so a load test can compare.
func addRoutes(to router: RouterGroup<BasicGraftRequestContext>) {
    router.get("todos") { _, context in
        try await context.resolve(TodoRepository.self).all()
    }
    router.post("todos") { request, context -> Todo in
        let new = try await request.decode(as: NewTodo.self, context: context)
        let todo = try await context.resolve(TodoRepository.self).add(title: new.title)
        // Validated after the insert, to show the rollback: the row is not kept.
        guard !new.title.isEmpty else { throw HTTPError(.badRequest, message: "A todo needs a title.") }
        return todo
    }
    router.get("ping") { _, context in
        _ = try await context.resolve(RequestStart.self)
        return "pong"
    }
}
