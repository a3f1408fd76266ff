import Graft
import GraftHummingbird
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing

// The code of the article "Request scopes in a Hummingbird app" (RequestScopes.md), compiled
// and run, and so is the code of the catalog's landing page.
// The root package's DocumentedCodeTests checks that every line of their `swift` blocks is here.

/// The app's data, shared by every request.
private actor TodoStore {
    private(set) var titles: [String] = []

    /// Saves every title of `new`, or none: a title saved before is refused.
    func save(_ new: [String]) throws {
        if let taken = new.first(where: { titles.contains($0) }) { throw DuplicateTitle(title: taken) }
        titles += new
    }
}

private struct DuplicateTitle: Error, CustomStringConvertible {
    let title: String
    var description: String { "a todo titled \(title) already exists" }
}

/// One per request: what the request adds is saved in its completion step, before the response.
private final class TodoRepository: Completable {
    let store: TodoStore
    let logger: Logger
    private let added = Mutex<[String]>([])

    init(store: TodoStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    func add(title: String) {
        logger.info("adding \(title)")
        added.withLock { $0.append(title) }
    }

    func all() async -> [String] { await store.titles }

    /// The request's completion step: after the handler returned, before the response is sent.
    func complete() async throws {
        try await store.save(added.withLock { $0 })
    }
}

private func makeContainer() async throws -> Container {
    var builder = ContainerBuilder()
    builder.registerRequestValues()
    builder.register(TodoStore.self, lifetime: .singleton) { _ in TodoStore() }
    builder.register(TodoRepository.self, lifetime: .scoped, using: TodoRepository.init(store:logger:))
    builder.onComplete(TodoRepository.self)
    let container = try await builder.build()
    return container
}

private func buildApplication(container: Container, port: Int) -> some ApplicationProtocol {
    let router = Router(context: BasicGraftRequestContext.self)
    router.add(middleware: RequestScopeMiddleware(container))
    router.post("todos") { request, context -> HTTPResponse.Status in
        let todos = try await context.resolve(TodoRepository.self)
        let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        for title in body.split(separator: "\n", omittingEmptySubsequences: false) {
            // A blank line fails the whole request: the titles before it are not saved either.
            guard !title.isEmpty else { throw HTTPError(.badRequest, message: "A todo needs a title.") }
            todos.add(title: String(title))
        }
        return .created
    }
    router.get("todos") { _, context in
        try await context.resolve(TodoRepository.self).all().joined(separator: "\n")
    }
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
}

/// The article's `main`: compiled, not run, since it serves until SIGTERM on a fixed port.
private func runServer() async throws {
    let container = try await makeContainer()
    let app = buildApplication(container: container, port: 8080)
    try await app.runService()
    try await container.shutdown()
}

@Suite(.timeLimit(.minutes(1))) struct RequestScopesSnippets {
    @Test func aRequestsTodosAreSavedBeforeItIsAnswered() async throws {
        let container = try await makeContainer()
        let store = try await container.resolve(TodoStore.self)
        let app = buildApplication(container: container, port: 0)
        try await app.test(.live) { client in
            try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: "milk\nbread")) {
                #expect($0.status == .created)
                #expect(await store.titles == ["milk", "bread"])  // saved before the answer
            }
            try await client.execute(uri: "/todos", method: .get) {
                #expect(String(buffer: $0.body) == "milk\nbread")
            }
        }
        try await container.shutdown()
    }

    @Test func aTodoTheStoreRefusesIsAnswered500AndLogged() async throws {
        let container = try await makeContainer()
        let (logger, logs) = InMemoryLogHandler.logger()
        let router = Router(context: BasicGraftRequestContext.self)
        router.add(middleware: RequestScopeMiddleware(container))
        router.post("todos") { request, context -> HTTPResponse.Status in
            let body = String(buffer: try await request.body.collect(upTo: 64 * 1024))
            try await context.resolve(TodoRepository.self).add(title: body)
            return .created
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger
        )
        try await app.test(.live) { client in
            try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: "milk")) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: "milk")) {
                #expect($0.status == .internalServerError)
                #expect(!String(buffer: $0.body).contains("milk"))
            }
        }
        #expect(try await container.resolve(TodoStore.self).titles == ["milk"])
        #expect(
            logs.errors.map(\.message) == [
                """
                Graft: complete() of TodoRepository threw: a todo titled milk already exists
                  the scope's work was not completed; its dispose() still runs when the scope closes
                """
            ]
        )
        try await container.shutdown()
    }

    @Test func aFailedRequestSavesNothing() async throws {
        let container = try await makeContainer()
        let store = try await container.resolve(TodoStore.self)
        let app = buildApplication(container: container, port: 0)
        try await app.test(.live) { client in
            try await client.execute(uri: "/todos", method: .post, body: ByteBuffer(string: "eggs\n\nbutter")) {
                #expect($0.status == .badRequest)
                #expect(String(buffer: $0.body).contains("A todo needs a title."))
            }
            // The completion step did not run: nothing was saved.
            #expect(await store.titles.isEmpty)
            try await client.execute(uri: "/todos", method: .get) {
                #expect(String(buffer: $0.body) == "")
            }
        }
        try await container.shutdown()
    }

    @Test func whileTheContainerDrainsNewRequestsAreTurnedAway() async throws {
        let container = try await makeContainer()
        let app = buildApplication(container: container, port: 0)
        // Stands in for a request in flight, so the container has something to wait for.
        let inFlight = try container.makeScope(providing: HummingbirdRequestID("held"), Logger(label: "held"))
        try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await container.shutdown(gracePeriod: .seconds(10)) }
                let deadline = ContinuousClock.now + .seconds(10)
                while !container.isShuttingDown, ContinuousClock.now < deadline { await Task.yield() }
                #expect(container.isShuttingDown)
                try await client.execute(uri: "/todos", method: .get) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body).contains("The server is shutting down."))
                }
                try await inFlight.close()
                try await tasks.waitForAll()
            }
        }
    }
}
